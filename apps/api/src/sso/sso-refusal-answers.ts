// What single sign-on's settings and sign-ons refuse, answered over HTTP (docs/api.md, Errors).
import type { RefusalAnswers } from '../http/error-answers.js';

export const ssoRefusals: RefusalAnswers = {
  SSO_DOMAIN_PUBLIC: { status: 400, title: 'A public mail domain cannot use single sign-on' },
  SAML_RESPONSE_REFUSED: { status: 400, title: 'The SAML response is refused' },
  ENTERPRISE_PLAN_REQUIRED: { status: 409, title: 'An enterprise plan is required' },
  SSO_DOMAIN_TAKEN: { status: 409, title: 'The domain signs in through another organization' },
  SSO_DISCOVERY_FAILED: { status: 422, title: 'The issuer could not be discovered' },
};
