import { DomainError } from '../../errors.js';
import type { SsoDomainRecordMissing, SsoDomainUnverified, SsoDomainVerified } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { invalid } from '../command-validation.js';

/**
 * What a DNS look-up of the domain's verification record found (the application asks; the domain decides).
 * found: the TXT record holds the token. at: the application's clock. graceMs: how long a verified domain
 * stays verified after its record is first found missing (SSO_DOMAIN_GRACE_HOURS).
 */
export type RecordSsoDomainCheck = { type: 'RecordSsoDomainCheck'; data: { domain: string; found: boolean; at: string; graceMs: number } };

type CheckEvent = SsoDomainVerified | SsoDomainRecordMissing | SsoDomainUnverified;

/**
 * Found: a pending or unverified domain is verified (the caller has taken its claim first), a verified one
 * whose record was missing is verified again. Not found: a verified domain starts its grace period, and is
 * unverified once that has passed; a pending or unverified one stays as it is. Nothing else is recorded.
 */
export function recordSsoDomainCheck(command: RecordSsoDomainCheck, state: ExistingOrganization): CheckEvent[] {
  const { domain, found, at, graceMs } = command.data;
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at))) throw invalid('at', 'required', 'at must be the time of the check.');
  if (typeof graceMs !== 'number' || !Number.isFinite(graceMs) || graceMs < 0) throw invalid('graceMs', 'out_of_range', 'graceMs must be a duration.');
  const verification = state.sso?.domains.includes(domain) ? state.sso.verification[domain] : undefined;
  if (verification === undefined) {
    throw new DomainError('NOT_FOUND', `${domain} is not one of the organization's single sign-on domains.`, { entity: 'ssoDomain', domain });
  }
  if (found) {
    return verification.status !== 'verified' || verification.missingSince !== null ? [{ type: 'SsoDomainVerified', data: { domain, at } }] : [];
  }
  if (verification.status !== 'verified') return [];
  if (verification.missingSince === null) return [{ type: 'SsoDomainRecordMissing', data: { domain, at } }];
  return Date.parse(at) - Date.parse(verification.missingSince) >= graceMs ? [{ type: 'SsoDomainUnverified', data: { domain, at } }] : [];
}
