import { parseHostname, type Hostname } from '../hostnames/parse-hostname.js';
import type { ExistingOrganization } from '../organization/state.js';
import type { PlanCatalogue } from '../plans/catalogue.js';
import { governingPlan } from '../limits/governing-plan.js';

export const MAX_SSO_DOMAINS = 20;
export const MAX_ISSUER_LENGTH = 2048;
export const MAX_CLIENT_ID_LENGTH = 512;

/** A secret in clear cannot pass, so no bug upstream can record one. */
const SEALED_SECRET = /^v1\.[A-Za-z0-9_-]{1,32}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22,2800}$/;
export const isSealedSecret = (value: unknown): value is string =>
  typeof value === 'string' && SEALED_SECRET.test(value);

export const isClientId = (value: unknown): value is string =>
  typeof value === 'string' &&
  value.length >= 1 &&
  value.length <= MAX_CLIENT_ID_LENGTH &&
  /^[\x21-\x7e]+$/.test(value);

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** Kept exactly as given: the provider's discovery document must name the very same string. */
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
  if (
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== '' ||
    issuer.includes('?') ||
    issuer.includes('#')
  )
    return null;
  if (url.protocol === 'https:') return issuer;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.test(url.hostname) ? issuer : null;
}

export const isLoopbackHttpIssuer = (issuer: string): boolean => issuer.startsWith('http://');

export function parseSsoDomain(value: unknown): Hostname | null {
  if (typeof value !== 'string') return null;
  const hostname = parseHostname(value);
  if (hostname === null || !hostname.ascii.includes('.')) return null;
  // No top-level domain is numeric: this is an IPv4 address.
  if (/^\d+$/.test(hostname.ascii.slice(hostname.ascii.lastIndexOf('.') + 1))) return null;
  return hostname;
}

export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at < 1 ? null : (parseSsoDomain(email.slice(at + 1))?.ascii ?? null);
}

export const ssoVerificationRecordName = (domain: string): string => `_chorus-verification.${domain}`;

export const isSsoVerificationToken = (value: unknown): value is string =>
  typeof value === 'string' && /^[A-Za-z0-9_-]{32,64}$/.test(value);

export const isVerifiedSsoDomain = (state: ExistingOrganization, domain: string): boolean =>
  state.sso !== null && state.sso.domains.includes(domain) && state.sso.verification[domain]?.status === 'verified';

/** An exact match: subdomains are listed on their own. */
export function ssoDomainOf(state: ExistingOrganization, email: string): string | null {
  const domain = emailDomain(email);
  return domain !== null && isVerifiedSsoDomain(state, domain) ? domain : null;
}

export const hasSsoPlan = (state: ExistingOrganization, catalogue: PlanCatalogue): boolean =>
  governingPlan(state, catalogue)?.name === 'enterprise';
