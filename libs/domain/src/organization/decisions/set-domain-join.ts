// Joining by verified domain (docs/directory.md): per verified domain, `invitation` (each person invited, the
// default) or `automatic` with a role: a person signing in with an address of that domain becomes a member.
import { DomainError } from '../../errors.js';
import { isVerifiedSsoDomain } from '../../sso/sso-rules.js';
import type { MemberRole } from '../member-roles.js';
import type { ExistingOrganization } from '../state.js';
import { invalid, requireOneOf } from '../command-validation.js';

export const DOMAIN_JOINS = ['invitation', 'automatic'] as const;
export type DomainJoin = (typeof DOMAIN_JOINS)[number];
/** Never owner: an address is not enough to own an organization. */
export const JOIN_ROLES: readonly MemberRole[] = ['admin', 'auditor', 'member'];

export type SetDomainJoin = { type: 'SetDomainJoin'; data: { domain: string; join: DomainJoin; role?: MemberRole } };
/** `role` with `automatic` only. */
export type DomainJoinSet = { type: 'DomainJoinSet'; data: { domain: string; join: DomainJoin; role?: MemberRole } };

/**
 * A person of an automatic domain could not join for the users limit; recorded at most once a day (`on`), which mails
 * the owners.
 */
export type RecordAutomaticJoinRefusal = { type: 'RecordAutomaticJoinRefusal'; data: { domain: string; on: string } };
export type AutomaticJoinRefused = { type: 'AutomaticJoinRefused'; data: { domain: string; on: string } };

/** Asked of owners only (OWNERS_ONLY); the domain must be verified now; the same setting again records nothing. */
export function setDomainJoin(command: SetDomainJoin, state: ExistingOrganization): DomainJoinSet[] {
  const { domain } = command.data;
  if (typeof domain !== 'string' || !isVerifiedSsoDomain(state, domain)) {
    throw new DomainError(
      'VALIDATION_FAILED',
      'Only a domain the organization has verified can let people join by their address.',
      { field: 'domain', reason: 'not_allowed' },
    );
  }
  const join = requireOneOf('join', command.data.join, DOMAIN_JOINS);
  if (join === 'invitation')
    return state.domainJoins?.[domain] === undefined ? [] : [{ type: 'DomainJoinSet', data: { domain, join } }];
  const role = command.data.role ?? 'member';
  if (!JOIN_ROLES.includes(role))
    throw invalid('role', 'not_allowed', 'People who join by their address are admins, auditors or members.');
  return state.domainJoins?.[domain] === role ? [] : [{ type: 'DomainJoinSet', data: { domain, join, role } }];
}

export function withDomainJoinSet(state: ExistingOrganization, { data }: DomainJoinSet): ExistingOrganization {
  const { [data.domain]: _, ...others } = state.domainJoins ?? {};
  return {
    ...state,
    domainJoins: data.join === 'automatic' ? { ...others, [data.domain]: data.role ?? 'member' } : others,
  };
}

export function recordAutomaticJoinRefusal(
  command: RecordAutomaticJoinRefusal,
  state: ExistingOrganization,
): AutomaticJoinRefused[] {
  return state.automaticJoinRefusedOn === command.data.on ? [] : [{ type: 'AutomaticJoinRefused', data: command.data }];
}

export const withAutomaticJoinRefused = (
  state: ExistingOrganization,
  { data }: AutomaticJoinRefused,
): ExistingOrganization => ({
  ...state,
  automaticJoinRefusedOn: data.on,
});

/** The role a person of `domain` joins with, when the domain is automatic and still verified. */
export const automaticJoinRole = (state: ExistingOrganization, domain: string): MemberRole | undefined =>
  isVerifiedSsoDomain(state, domain) ? state.domainJoins?.[domain] : undefined;
