// Enterprise single sign-on: what an organization's SSO settings may hold, and whose
// address they cover. Pure: discovery, encryption and the uniqueness of domains across organizations
// are the application's (apps/api/src/sso), which hands the domain a sealed secret, never a clear one.
import { parseHostname, type Hostname } from '../hostnames/parse-hostname.js';
import type { ExistingOrganization } from '../organization/state.js';
import type { PlanCatalogue } from '../plans/catalogue.js';
import { governingPlan } from '../limits/governing-plan.js';

export const MAX_SSO_DOMAINS = 20;
export const MAX_ISSUER_LENGTH = 2048;
export const MAX_CLIENT_ID_LENGTH = 512;

/**
 * The only form a client secret may take in an event: `v1.<keyId>.<iv>.<ciphertext>`, base64url parts
 * (apps/api's SsoSecretBox). A secret in clear cannot pass, so no bug upstream can record one.
 */
const SEALED_SECRET = /^v1\.[A-Za-z0-9_-]{1,32}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22,2800}$/;
export const isSealedSecret = (value: unknown): value is string => typeof value === 'string' && SEALED_SECRET.test(value);

/** The client id a provider gave: printable ASCII without spaces. */
export const isClientId = (value: unknown): value is string =>
  typeof value === 'string' && value.length >= 1 && value.length <= MAX_CLIENT_ID_LENGTH && /^[\x21-\x7e]+$/.test(value);

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * An issuer identifier (OIDC Discovery 1.0, section 2): https, no query or fragment; kept exactly as
 * given, since the provider's discovery document must name the very same string. http:// only on a
 * loopback address (a local provider, tests); the API refuses even that in production.
 */
export function parseIssuer(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const issuer = value.trim();
  if (issuer === '' || issuer.length > MAX_ISSUER_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || issuer.includes('?') || issuer.includes('#')) return null;
  if (url.protocol === 'https:') return issuer;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.test(url.hostname) ? issuer : null;
}

export const isLoopbackHttpIssuer = (issuer: string): boolean => issuer.startsWith('http://');

/**
 * An e-mail domain: the seed's hostname rule (section 5) and docs/domain.md's normalisation (ASCII form),
 * and further: a dot is required even for localhost, and an IP address is no e-mail domain.
 */
export function parseSsoDomain(value: unknown): Hostname | null {
  if (typeof value !== 'string') return null;
  const hostname = parseHostname(value);
  if (hostname === null || !hostname.ascii.includes('.')) return null;
  // A last label of digits only is an IPv4 address (no top-level domain is numeric).
  if (/^\d+$/.test(hostname.ascii.slice(hostname.ascii.lastIndexOf('.') + 1))) return null;
  return hostname;
}

/** The domain of an address in ASCII form (after the last '@'), or null when it has none. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at < 1 ? null : (parseSsoDomain(email.slice(at + 1))?.ascii ?? null);
}

/** Where the proof that the organization controls a domain is published (a TXT record holding its token). */
export const ssoVerificationRecordName = (domain: string): string => `_chorus-verification.${domain}`;

/** A verification token as the application makes them: random, base64url, 32 to 64 characters. */
export const isSsoVerificationToken = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{32,64}$/.test(value);

/** Whether the organization has proved control of the domain (ASCII form): only then does it sign anyone in. */
export const isVerifiedSsoDomain = (state: ExistingOrganization, domain: string): boolean =>
  state.sso !== null && state.sso.domains.includes(domain) && state.sso.verification[domain]?.status === 'verified';

/**
 * The organization's verified SSO domain that covers this address (an exact match: subdomains are listed on
 * their own), if any. A pending or unverified domain covers no one.
 */
export function ssoDomainOf(state: ExistingOrganization, email: string): string | null {
  const domain = emailDomain(email);
  return domain !== null && isVerifiedSsoDomain(state, domain) ? domain : null;
}

/** SSO is sold with the enterprise plans: the governing plan must be one (either line's enterprise). */
export const hasSsoPlan = (state: ExistingOrganization, catalogue: PlanCatalogue): boolean => governingPlan(state, catalogue)?.name === 'enterprise';
