// docs/domain.md, Members and roles: "Only owners add, remove, promote or demote owners; owners and admins manage
// everyone else; ... auditors change nothing." Checked in the domain, on the state the decision is made
// on, so no race between reading a role and using it can let an admin take an organization over.
import { DomainError } from '../errors.js';
import type { OrganizationCommand } from './commands.js';
import { MANAGING_ROLES, type MemberRole } from './member-roles.js';
import type { Requester } from './requester.js';
import type { ExistingOrganization } from './state.js';

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

export function authorize(command: OrganizationCommand, state: ExistingOrganization, requester: Requester): void {
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
