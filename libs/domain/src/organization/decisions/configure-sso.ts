import { DomainError } from '../../errors.js';
import { ssoDomainTaken } from '../../sso/sso-domain-claim.js';
import {
  hasSsoPlan,
  isClientId,
  isSealedSecret,
  isSsoVerificationToken,
  MAX_SSO_DOMAINS,
  parseIssuer,
  parseSsoDomain,
} from '../../sso/sso-rules.js';
import type { DecideContext } from '../decide-context.js';
import type { ExistingOrganization, SsoDomainVerification } from '../state.js';
import { invalid, optionalBoolean } from '../command-validation.js';
import { withVerification } from './sso-verification.js';

/** What only the outside can find out before the decision. */
export type SsoChecks = {
  publicDomains: string[];
  domainsHeldElsewhere: string[];
  issuerAllowed: boolean;
  discovery: 'ok' | 'failed' | 'not-asked';
};

/** clientSecret sealed, absent to keep the one configured. */
export type ConfigureSso = {
  type: 'ConfigureSso';
  data: {
    issuer: string;
    clientId: string;
    clientSecret?: string;
    domains: string[];
    enforce?: boolean;
    trustProviderMfa?: boolean;
    verificationTokens?: Record<string, string>;
    at?: string;
    checks: SsoChecks;
  };
};

/** clientSecret is sealed, never clear. */
export type SsoConfigured = {
  type: 'SsoConfigured';
  data: {
    issuer: string;
    clientId: string;
    clientSecret: string;
    domains: string[];
    enforce: boolean;
    trustProviderMfa?: true;
  };
};
/** Until the TXT record `_chorus-verification.<domain>` holds the token, the domain signs no one in. */
export type SsoDomainPending = { type: 'SsoDomainPending'; data: { domain: string; token: string; at: string } };

export function requireDomains(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0)
    throw invalid('domains', 'required', 'domains must list at least one e-mail domain.');
  if (value.length > MAX_SSO_DOMAINS)
    throw invalid('domains', 'out_of_range', `domains may list at most ${MAX_SSO_DOMAINS} e-mail domains.`);
  const domains: string[] = [];
  for (const entry of value) {
    const domain = parseSsoDomain(entry);
    if (domain === null) {
      throw new DomainError(
        'INVALID_HOSTNAME',
        `${String(entry)} is not an e-mail domain (a hostname with a dot, not an address).`,
        { field: 'domains', value: entry },
      );
    }
    if (domains.includes(domain.ascii))
      throw new DomainError('DUPLICATE', `${domain.unicode} is listed twice.`, {
        field: 'domains',
        value: domain.unicode,
      });
    domains.push(domain.ascii);
  }
  return domains;
}

export function configureSso(
  command: ConfigureSso,
  state: ExistingOrganization,
  { catalogue }: DecideContext,
): (SsoConfigured | SsoDomainPending)[] {
  const issuer = parseIssuer(command.data.issuer);
  if (issuer === null)
    throw invalid(
      'issuer',
      'invalid_format',
      'issuer must be an https:// URL without query or fragment (http:// only on a loopback address).',
    );
  if (!isClientId(command.data.clientId))
    throw invalid('clientId', 'invalid_format', 'clientId must be 1 to 512 printable characters without spaces.');
  const clientId = command.data.clientId;
  const given = command.data.clientSecret;
  if (given !== undefined && !isSealedSecret(given))
    throw invalid('clientSecret', 'invalid_format', 'clientSecret must be sealed before it is recorded.');
  const clientSecret = given ?? (state.sso?.protocol === 'oidc' ? state.sso.clientSecret : undefined);
  if (clientSecret === undefined)
    throw invalid('clientSecret', 'required', 'clientSecret is required to configure single sign-on.');
  const domains = requireDomains(command.data.domains);
  const enforce = optionalBoolean('enforce', command.data.enforce) ?? false;
  const trustProviderMfa = optionalBoolean('trustProviderMfa', command.data.trustProviderMfa) ?? false;
  if (!hasSsoPlan(state, catalogue)) {
    throw new DomainError('ENTERPRISE_PLAN_REQUIRED', 'Single sign-on comes with the enterprise plans.', {
      feature: 'sso',
    });
  }
  refuseWhatChecksFound(command.data.checks, issuer, domains);
  const current = state.sso;
  const unchanged =
    current?.protocol === 'oidc' &&
    current.issuer === issuer &&
    current.clientId === clientId &&
    current.clientSecret === clientSecret &&
    current.enforce === enforce &&
    current.trustProviderMfa === trustProviderMfa &&
    current.domains.length === domains.length &&
    current.domains.every((domain, i) => domain === domains[i]);
  const data: SsoConfigured['data'] = {
    issuer,
    clientId,
    clientSecret,
    domains,
    enforce,
    ...(trustProviderMfa ? { trustProviderMfa } : {}),
  };
  const configured: SsoConfigured[] = unchanged ? [] : [{ type: 'SsoConfigured', data }];
  return [...configured, ...pendingDomains(command.data, domains, state)];
}

/** In the order an owner fixes them. */
function refuseWhatChecksFound(checks: SsoChecks | undefined, issuer: string, domains: readonly string[]): void {
  if (checks === undefined)
    throw invalid('checks', 'required', 'The settings must be checked before they are decided on.');
  refuseDomainsChecksFound(checks, domains);
  if (!checks.issuerAllowed) throw invalid('issuer', 'not_allowed', 'issuer: must be an https:// URL in production.');
  if (checks.discovery !== 'ok') {
    const detail =
      'The issuer could not be used: it must serve an OpenID Connect discovery document over https from a public address.';
    throw new DomainError('SSO_DISCOVERY_FAILED', detail, { issuer });
  }
}

/** Whatever the protocol: no public mail domain, none another organization holds. */
export function refuseDomainsChecksFound(
  checks: Pick<SsoChecks, 'publicDomains' | 'domainsHeldElsewhere'>,
  domains: readonly string[],
): void {
  const publicDomain = domains.find((domain) => checks.publicDomains.includes(domain));
  if (publicDomain !== undefined) {
    throw new DomainError(
      'SSO_DOMAIN_PUBLIC',
      `Anyone can have an address at ${publicDomain}: it cannot sign in through one organization.`,
      {
        domain: publicDomain,
        errors: [{ pointer: '#/domains', detail: `${publicDomain} is a public mail domain` }],
      },
    );
  }
  const held = domains.find((domain) => checks.domainsHeldElsewhere.includes(domain));
  if (held !== undefined) throw ssoDomainTaken(held);
}

export function pendingDomains(
  { verificationTokens = {}, at }: { verificationTokens?: Record<string, string>; at?: string },
  domains: readonly string[],
  state: ExistingOrganization,
): SsoDomainPending[] {
  const unproven = domains.filter((domain) => state.sso?.verification[domain] === undefined);
  if (unproven.length === 0) return [];
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at)))
    throw invalid('at', 'required', 'at must be the time of the change.');
  return unproven.map((domain) => {
    const token = verificationTokens[domain];
    if (!isSsoVerificationToken(token))
      throw invalid('verificationTokens', 'required', `A verification token is required for ${domain}.`);
    return { type: 'SsoDomainPending', data: { domain, token, at } };
  });
}

export function withSsoConfigured(state: ExistingOrganization, { data }: SsoConfigured): ExistingOrganization {
  const { issuer, clientId, clientSecret, domains, enforce, trustProviderMfa = false } = data;
  const listed = [...new Set(domains)];
  const sso = {
    protocol: 'oidc',
    issuer,
    clientId,
    clientSecret,
    domains: listed,
    enforce,
    trustProviderMfa,
    verification: keptVerification(state, listed),
  } as const;
  return { ...state, sso };
}

/** A domain still listed keeps its proof, whichever protocol signs it in now. */
export function keptVerification(
  state: ExistingOrganization,
  listed: readonly string[],
): Record<string, SsoDomainVerification> {
  return Object.fromEntries(
    Object.entries(state.sso?.verification ?? {}).filter(([domain]) => listed.includes(domain)),
  );
}

export const withSsoDomainPending = (state: ExistingOrganization, { data }: SsoDomainPending): ExistingOrganization =>
  withVerification(state, data.domain, () => ({
    status: 'pending',
    token: data.token,
    since: data.at,
    missingSince: null,
  }));
