// SAML 2.0 single sign-on beside OpenID Connect (docs/directory.md, SAML single sign-on). The identity provider's
// metadata is fetched and
// read outside (the handler); what it says arrives here as values, decided on like every other setting.
import { DomainError } from '../../errors.js';
import { hasSsoPlan } from '../../sso/sso-rules.js';
import { isSamlCertificate, isSamlEntityId, parseSamlSsoUrl, MAX_SAML_CERTIFICATES } from '../../sso/saml-rules.js';
import type { DecideContext } from '../decide-context.js';
import type { ExistingOrganization, SamlCertificate, SamlSsoSettings } from '../state.js';
import { invalid, optionalBoolean } from '../command-validation.js';
import {
  keptVerification,
  pendingDomains,
  refuseDomainsChecksFound,
  requireDomains,
  type SsoChecks,
  type SsoDomainPending,
} from './configure-sso.js';

/** The identity provider as its metadata describes it. */
export type SamlIdentityProvider = { entityId: string; ssoUrl: string; certificates: SamlCertificate[] };

/** idp absent: keep the saved provider (an owner changing only the domains need not paste the metadata again). */
export type ConfigureSamlSso = {
  type: 'ConfigureSamlSso';
  data: {
    idp?: SamlIdentityProvider;
    metadataUrl?: string | null;
    domains: string[];
    enforce?: boolean;
    trustProviderMfa?: boolean;
    allowIdpInitiated?: boolean;
    verificationTokens?: Record<string, string>;
    at?: string;
    checks: Pick<SsoChecks, 'publicDomains' | 'domainsHeldElsewhere'>;
  };
};

export type SamlSsoConfigured = {
  type: 'SamlSsoConfigured';
  data: {
    idpEntityId: string;
    ssoUrl: string;
    certificates: SamlCertificate[];
    metadataUrl: string | null;
    domains: string[];
    enforce: boolean;
    allowIdpInitiated: boolean;
    trustProviderMfa?: true;
  };
};

function requireProvider(given: unknown, state: ExistingOrganization): SamlIdentityProvider {
  if (given === undefined) {
    if (state.sso?.protocol === 'saml')
      return { entityId: state.sso.idpEntityId, ssoUrl: state.sso.ssoUrl, certificates: [...state.sso.certificates] };
    throw invalid(
      'metadataXml',
      'required',
      "metadataXml or metadataUrl is required: the identity provider's SAML metadata.",
    );
  }
  const idp = given as Partial<SamlIdentityProvider>;
  if (!isSamlEntityId(idp.entityId))
    throw invalid(
      'idp.entityId',
      'invalid_format',
      "The identity provider's entity id must be 1 to 1024 printable characters.",
    );
  const ssoUrl = parseSamlSsoUrl(idp.ssoUrl);
  if (ssoUrl === null)
    throw invalid('idp.ssoUrl', 'invalid_format', "The identity provider's sign-on URL must be an https:// URL.");
  const certificates = idp.certificates;
  if (!Array.isArray(certificates) || certificates.length === 0 || certificates.length > MAX_SAML_CERTIFICATES) {
    throw invalid(
      'idp.certificates',
      'required',
      `The identity provider must name 1 to ${MAX_SAML_CERTIFICATES} signing certificates.`,
    );
  }
  if (!certificates.every(isSamlCertificate))
    throw invalid('idp.certificates', 'invalid_format', 'A signing certificate is not a certificate.');
  return {
    entityId: idp.entityId,
    ssoUrl,
    certificates: certificates.map(({ certificate, sha256, notAfter }) => ({ certificate, sha256, notAfter })),
  };
}

export function configureSamlSso(
  command: ConfigureSamlSso,
  state: ExistingOrganization,
  { catalogue }: DecideContext,
): (SamlSsoConfigured | SsoDomainPending)[] {
  const idp = requireProvider(command.data.idp, state);
  const given = command.data.metadataUrl;
  if (given !== undefined && given !== null && parseSamlSsoUrl(given) === null)
    throw invalid('metadataUrl', 'invalid_format', 'metadataUrl must be an https:// URL.');
  const metadataUrl =
    command.data.idp === undefined && state.sso?.protocol === 'saml' ? state.sso.metadataUrl : (given ?? null);
  const domains = requireDomains(command.data.domains);
  const enforce = optionalBoolean('enforce', command.data.enforce) ?? false;
  const trustProviderMfa = optionalBoolean('trustProviderMfa', command.data.trustProviderMfa) ?? false;
  const allowIdpInitiated = optionalBoolean('allowIdpInitiated', command.data.allowIdpInitiated) ?? false;
  if (!hasSsoPlan(state, catalogue)) {
    throw new DomainError('ENTERPRISE_PLAN_REQUIRED', 'Single sign-on comes with the enterprise plans.', {
      feature: 'sso',
    });
  }
  if (command.data.checks === undefined)
    throw invalid('checks', 'required', 'The settings must be checked before they are decided on.');
  refuseDomainsChecksFound(command.data.checks, domains);
  const data: SamlSsoConfigured['data'] = {
    idpEntityId: idp.entityId,
    ssoUrl: idp.ssoUrl,
    certificates: idp.certificates,
    metadataUrl,
    domains,
    enforce,
    allowIdpInitiated,
    ...(trustProviderMfa ? { trustProviderMfa } : {}),
  };
  const configured: SamlSsoConfigured[] =
    state.sso?.protocol === 'saml' && sameSettings(state.sso, data) ? [] : [{ type: 'SamlSsoConfigured', data }];
  return [...configured, ...pendingDomains(command.data, domains, state)];
}

function sameSettings(current: SamlSsoSettings, data: SamlSsoConfigured['data']): boolean {
  const same = (a: readonly unknown[], b: readonly unknown[]) => JSON.stringify(a) === JSON.stringify(b);
  return (
    current.idpEntityId === data.idpEntityId &&
    current.ssoUrl === data.ssoUrl &&
    current.metadataUrl === data.metadataUrl &&
    current.enforce === data.enforce &&
    current.allowIdpInitiated === data.allowIdpInitiated &&
    current.trustProviderMfa === (data.trustProviderMfa === true) &&
    same(current.domains, data.domains) &&
    same(current.certificates, data.certificates)
  );
}

export function withSamlSsoConfigured(state: ExistingOrganization, { data }: SamlSsoConfigured): ExistingOrganization {
  const {
    idpEntityId,
    ssoUrl,
    certificates,
    metadataUrl,
    domains,
    enforce,
    allowIdpInitiated,
    trustProviderMfa = false,
  } = data;
  const listed = [...new Set(domains)];
  const sso: SamlSsoSettings = {
    protocol: 'saml',
    idpEntityId,
    ssoUrl,
    certificates,
    metadataUrl,
    allowIdpInitiated,
    domains: listed,
    enforce,
    trustProviderMfa,
    verification: keptVerification(state, listed),
  };
  return { ...state, sso };
}
