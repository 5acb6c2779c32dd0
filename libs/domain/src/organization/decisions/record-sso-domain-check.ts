import { DomainError } from '../../errors.js';
import type { ExistingOrganization } from '../state.js';
import { invalid } from '../command-validation.js';
import { withVerification } from './sso-verification.js';

/** graceMs: how long a verified domain stays verified after its record is first found missing. */
export type RecordSsoDomainCheck = {
  type: 'RecordSsoDomainCheck';
  data: { domain: string; found: boolean; at: string; graceMs: number };
};

export type SsoDomainVerified = { type: 'SsoDomainVerified'; data: { domain: string; at: string } };
export type SsoDomainRecordMissing = { type: 'SsoDomainRecordMissing'; data: { domain: string; at: string } };
export type SsoDomainUnverified = { type: 'SsoDomainUnverified'; data: { domain: string; at: string } };

type CheckEvent = SsoDomainVerified | SsoDomainRecordMissing | SsoDomainUnverified;

/** The caller must have taken the domain's claim before a check that may verify it. */
export function recordSsoDomainCheck(command: RecordSsoDomainCheck, state: ExistingOrganization): CheckEvent[] {
  const { domain, found, at, graceMs } = command.data;
  if (typeof at !== 'string' || Number.isNaN(Date.parse(at)))
    throw invalid('at', 'required', 'at must be the time of the check.');
  if (typeof graceMs !== 'number' || !Number.isFinite(graceMs) || graceMs < 0)
    throw invalid('graceMs', 'out_of_range', 'graceMs must be a duration.');
  const verification = state.sso?.domains.includes(domain) ? state.sso.verification[domain] : undefined;
  if (verification === undefined) {
    throw new DomainError('NOT_FOUND', `${domain} is not one of the organization's single sign-on domains.`, {
      entity: 'ssoDomain',
      domain,
    });
  }
  if (found) {
    return verification.status !== 'verified' || verification.missingSince !== null
      ? [{ type: 'SsoDomainVerified', data: { domain, at } }]
      : [];
  }
  if (verification.status !== 'verified') return [];
  if (verification.missingSince === null) return [{ type: 'SsoDomainRecordMissing', data: { domain, at } }];
  return Date.parse(at) - Date.parse(verification.missingSince) >= graceMs
    ? [{ type: 'SsoDomainUnverified', data: { domain, at } }]
    : [];
}

/** A record found again after missing keeps the first verification's date. */
export const withSsoDomainVerified = (state: ExistingOrganization, { data }: SsoDomainVerified): ExistingOrganization =>
  withVerification(state, data.domain, (current) => ({
    ...current,
    status: 'verified',
    since: current.status === 'verified' ? current.since : data.at,
    missingSince: null,
  }));

export const withSsoDomainRecordMissing = (
  state: ExistingOrganization,
  { data }: SsoDomainRecordMissing,
): ExistingOrganization => withVerification(state, data.domain, (current) => ({ ...current, missingSince: data.at }));

export const withSsoDomainUnverified = (
  state: ExistingOrganization,
  { data }: SsoDomainUnverified,
): ExistingOrganization =>
  withVerification(state, data.domain, (current) => ({
    ...current,
    status: 'unverified',
    since: data.at,
    missingSince: null,
  }));
