// decide: what a command means for an organization, as events, or a DomainError. Pure: no clock, no ids, no I/O.
// Each command's decision is in decisions/<command>.ts, listed by type in decisions.ts.
import { DomainError } from '../errors.js';
import type { OrganizationCommand } from './commands.js';
import type { DecideContext } from './decide-context.js';
import { type Decision, decisions } from './decisions.js';
import type { OrganizationEvent } from './events.js';
import { MANAGING_ROLES, type MemberRole } from './member-roles.js';
import type { Requester } from './requester.js';
import type { ExistingOrganization, OrganizationState } from './state.js';

export function decide(command: OrganizationCommand, state: OrganizationState, context: DecideContext): OrganizationEvent[] {
  // Commands may be built from JSON: a missing data object or an unknown type is the caller's error, not a crash.
  if (typeof command.data !== 'object' || command.data === null) {
    throw new DomainError('VALIDATION_FAILED', 'The command has no data.', { field: 'data', reason: 'required' });
  }
  if (!Object.hasOwn(decisions, command.type)) {
    throw new DomainError('VALIDATION_FAILED', 'Unknown command type.', { field: 'type', reason: 'not_allowed' });
  }
  if (command.type !== 'CreateOrganization' && state.exists) authorize(command, state, context.requester);
  // The table pairs each type with its own command's decision; TypeScript cannot follow that pairing
  // through a union, hence the one widening here.
  const decision = decisions[command.type] as Decision<OrganizationCommand>;
  return decision(command, state, context);
}

// Who may decide (docs/domain.md, Members and roles): only owners add, remove, promote or demote owners;
// owners and admins manage everyone else; auditors change nothing. Checked on the state the decision is
// made on, so no race between reading a role and using it can let an admin take an organization over.

/** The roles of the members a command adds, removes or changes (unknown values pass: validation refuses them). */
function rolesConcerned(command: OrganizationCommand, state: ExistingOrganization): readonly unknown[] {
  switch (command.type) {
    case 'AddMember':
      return [command.data.role];
    case 'RemoveMember':
    case 'ResendInvitation': {
      const member = state.members.find((candidate) => candidate.userId === command.data.userId);
      return member === undefined ? [] : [member.role];
    }
    case 'ChangeMemberRole': {
      // Promoting to owner and demoting an owner both concern owners.
      const member = state.members.find((candidate) => candidate.userId === command.data.userId);
      return member === undefined ? [command.data.role] : [member.role, command.data.role];
    }
    default:
      return [];
  }
}

/** Who signs the organization's people in is the owners' to decide, like who owns it. */
const OWNERS_ONLY: readonly OrganizationCommand['type'][] = ['ConfigureSso', 'DisableSso', 'RecordSsoDomainCheck'];

function authorize(command: OrganizationCommand, state: ExistingOrganization, requester: Requester): void {
  if (requester.kind === 'operator') return;
  const role: MemberRole | undefined = state.members.find((member) => member.userId === requester.userId)?.role;
  if (role === undefined || !MANAGING_ROLES.includes(role)) {
    throw new DomainError('FORBIDDEN', 'Only owners and admins change the organization.', { requires: 'owner-or-admin' });
  }
  if (role !== 'owner' && OWNERS_ONLY.includes(command.type)) {
    throw new DomainError('FORBIDDEN', 'Only an owner can configure single sign-on.', { requires: 'owner' });
  }
  if (role !== 'owner' && rolesConcerned(command, state).includes('owner')) {
    throw new DomainError('FORBIDDEN', 'Only an owner can add, remove, promote or demote an owner.', { requires: 'owner' });
  }
}
