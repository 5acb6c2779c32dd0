import { DomainError } from '../../errors.js';
import type { MemberRole, MemberRoleChanged } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { MEMBER_ROLES } from '../member-roles.js';
import { requireIdentifier, requireOneOf } from '../command-validation.js';

export type ChangeMemberRole = { type: 'ChangeMemberRole'; data: { userId: string; role: MemberRole } };

export function changeMemberRole(command: ChangeMemberRole, state: ExistingOrganization): MemberRoleChanged[] {
  const userId = requireIdentifier('userId', command.data.userId);
  const role = requireOneOf('role', command.data.role, MEMBER_ROLES);
  const member = state.members.find((candidate) => candidate.userId === userId);
  if (!member) throw new DomainError('NOT_FOUND', `User ${userId} is not a member.`, { entity: 'member', userId });
  if (member.role === role) return [];
  const owners = state.members.filter((candidate) => candidate.role === 'owner').length;
  if (member.role === 'owner' && owners === 1) {
    throw new DomainError('LAST_OWNER', 'The last owner cannot be demoted: make someone else an owner first.', { userId });
  }
  return [{ type: 'MemberRoleChanged', data: { userId, email: member.email, role, previousRole: member.role } }];
}
