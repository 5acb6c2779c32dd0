import { DomainError } from '../../errors.js';
import type { ExistingOrganization } from '../state.js';
import { requireIdentifier } from '../command-validation.js';

export type RemoveMember = { type: 'RemoveMember'; data: { userId: string } };

export type MemberRemoved = { type: 'MemberRemoved'; data: { userId: string } };

export function removeMember(command: RemoveMember, state: ExistingOrganization): MemberRemoved[] {
  const userId = requireIdentifier('userId', command.data.userId);
  const member = state.members.get(userId);
  if (!member) throw new DomainError('NOT_FOUND', `User ${userId} is not a member.`, { entity: 'member', userId });
  if (member.role === 'owner' && state.members.owners === 1) {
    throw new DomainError('LAST_OWNER', 'The last owner cannot be removed: make someone else an owner first.', {
      userId,
    });
  }
  return [{ type: 'MemberRemoved', data: { userId } }];
}

export const withMemberRemoved = (state: ExistingOrganization, { data }: MemberRemoved): ExistingOrganization => ({
  ...state,
  members: state.members.without(data.userId),
});
