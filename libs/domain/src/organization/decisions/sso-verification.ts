// Where the proof of control of an SSO domain stands changes alike for every verification event.
import type { ExistingOrganization, SsoDomainVerification } from '../state.js';

/** The SSO domain's verification changed; a domain not listed (or SSO off) is left as it is. */
export function withVerification(
  state: ExistingOrganization,
  domain: string,
  change: (current: SsoDomainVerification) => SsoDomainVerification,
): ExistingOrganization {
  if (state.sso === null || !state.sso.domains.includes(domain)) return state;
  const current = state.sso.verification[domain] ?? { status: 'pending', token: '', since: '', missingSince: null };
  return { ...state, sso: { ...state.sso, verification: { ...state.sso.verification, [domain]: change(current) } } };
}
