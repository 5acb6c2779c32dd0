import { DomainError } from '../../errors.js';
import type { ExistingOrganization } from '../state.js';
import { MEMBER_ROLES, type MemberRole } from '../member-roles.js';
import { requireIdentifier, requireOneOf } from '../command-validation.js';

export type ChangeMemberRole = { type: 'ChangeMemberRole'; data: { userId: string; role: MemberRole } };

/** email is the member's, as added; previousRole says what the change undid, for auditors. */
export type MemberRoleChanged = {
  type: 'MemberRoleChanged';
  data: { userId: string; email: string; role: MemberRole; previousRole: MemberRole };
};

export function changeMemberRole(command: ChangeMemberRole, state: ExistingOrganization): MemberRoleChanged[] {
  const userId = requireIdentifier('userId', command.data.userId);
  const role = requireOneOf('role', command.data.role, MEMBER_ROLES);
  const member = state.members.get(userId);
  if (!member) throw new DomainError('NOT_FOUND', `User ${userId} is not a member.`, { entity: 'member', userId });
  if (member.role === role) return [];
  if (member.role === 'owner' && state.members.owners === 1) {
    throw new DomainError('LAST_OWNER', 'The last owner cannot be demoted: make someone else an owner first.', {
      userId,
    });
  }
  return [{ type: 'MemberRoleChanged', data: { userId, email: member.email, role, previousRole: member.role } }];
}

/** The member keeps its place in the list; someone who is not a member changes nothing. */
export function withMemberRoleChanged(state: ExistingOrganization, { data }: MemberRoleChanged): ExistingOrganization {
  const members = state.members.withRole(data.userId, data.role);
  return members === state.members ? state : { ...state, members };
}
