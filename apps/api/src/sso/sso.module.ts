import { Global, Module } from '@nestjs/common';
import { ErrorAnswers } from '../http/error-answers.js';
import { ssoRefusals } from './sso-refusal-answers.js';
import { PASSWORD_GATE } from '../auth/password-gate.js';
import { SIGN_IN_JOINS } from '../auth/sign-in-joins.js';
import { DomainJoins } from './domain-joins.js';
import { JoinRefusals } from './join-refusals.js';
import { DirectoryModule } from '../directory/directory.module.js';
import { OrganizationsModule } from '../organizations/organizations.module.js';
import { ConfigureSsoHandler } from './configure-sso.handler.js';
import { SsoDomainClaims } from './sso-domain-claims.js';
import { SsoDomainDns } from './sso-domain-dns.js';
import { SsoDomainVerification } from './sso-domain-verification.js';
import { SsoEnforcement } from './sso-enforcement.js';
import { SsoSignOnController } from './sso-sign-on.controller.js';
import { SsoSignOnFailureLog } from './sso-sign-on-failure-log.js';
import { SsoSignOn } from './sso-sign-on.js';
import { SsoAdmission } from './sso-admission.js';
import { SsoSignOnEnding } from './sso-sign-on-ending.js';
import { SamlSignOn } from './saml-sign-on.service.js';
import { SamlSignOnController } from './saml-sign-on.controller.js';
import { SsoController } from './sso.controller.js';

/**
 * Enterprise single sign-on per organization: its configuration (PUT/DELETE
 * /organizations/:id/sso), its domains' proof of control (SsoDomainVerification: DNS, on demand and by a timer),
 * the sign-on (/auth/sso...), and SsoEnforcement, global, for password sign-in and reset.
 */
@Global()
@Module({
  imports: [OrganizationsModule, DirectoryModule],
  controllers: [SsoController, SsoSignOnController, SamlSignOnController],
  providers: [
    ConfigureSsoHandler,
    SsoDomainClaims,
    SsoDomainDns,
    SsoDomainVerification,
    SsoSignOn,
    SsoAdmission,
    JoinRefusals,
    SsoSignOnEnding,
    SamlSignOn,
    SsoSignOnFailureLog,
    SsoEnforcement,
    // Password sign-in and reset ask it, without depending on this module.
    { provide: PASSWORD_GATE, useExisting: SsoEnforcement },
    DomainJoins,
    // Every way in asks it once the person is fully signed in (BrowserSessions).
    { provide: SIGN_IN_JOINS, useExisting: DomainJoins },
  ],
  exports: [SsoEnforcement, SsoDomainVerification, PASSWORD_GATE, SIGN_IN_JOINS],
})
export class SsoModule {
  constructor(answers: ErrorAnswers) {
    answers.registerRefusals(ssoRefusals);
  }
}
