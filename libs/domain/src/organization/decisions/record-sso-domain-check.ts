import { DomainError } from '../../errors.js';
import type { ExistingOrganization } from '../state.js';
import { invalid } from '../command-validation.js';
import { withVerification } from './sso-verification.js';

/**
 * What a DNS look-up of the domain's verification record found (the application asks; the domain decides).
 * found: the TXT record holds the token. at: the application's clock. graceMs: how long a verified domain
 * stays verified after its record is first found missing (SSO_DOMAIN_GRACE_HOURS).
 */
export type RecordSsoDomainCheck = { type: 'RecordSsoDomainCheck'; data: { domain: string; found: boolean; at: string; graceMs: number } };

/** The token was found in the domain's DNS: the domain signs in through this organization. */
export type SsoDomainVerified = { type: 'SsoDomainVerified'; data: { domain: string; at: string } };
/** A verified domain's record was not found: it stays verified for the grace period, then is unverified. */
export type SsoDomainRecordMissing = { type: 'SsoDomainRecordMissing'; data: { domain: string; at: string } };
/** The record stayed missing for the whole grace period: the domain signs no one in until it is found again. */
export type SsoDomainUnverified = { type: 'SsoDomainUnverified'; data: { domain: string; at: string } };

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

/** Verified since it was first verified: a record found again after missing keeps that date. */
export const withSsoDomainVerified = (state: ExistingOrganization, { data }: SsoDomainVerified): ExistingOrganization =>
  withVerification(state, data.domain, (current) => ({
    ...current,
    status: 'verified',
    since: current.status === 'verified' ? current.since : data.at,
    missingSince: null,
  }));

export const withSsoDomainRecordMissing = (state: ExistingOrganization, { data }: SsoDomainRecordMissing): ExistingOrganization =>
  withVerification(state, data.domain, (current) => ({ ...current, missingSince: data.at }));

export const withSsoDomainUnverified = (state: ExistingOrganization, { data }: SsoDomainUnverified): ExistingOrganization =>
  withVerification(state, data.domain, (current) => ({ ...current, status: 'unverified', since: data.at, missingSince: null }));
