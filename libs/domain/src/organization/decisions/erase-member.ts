import { DomainError } from '../../errors.js';
import type { ExistingOrganization } from '../state.js';
import { requireIdentifier } from '../command-validation.js';

/** Asked by an erasure for every organization whose history holds the person, member now or earlier. */
export type EraseMember = { type: 'EraseMember'; data: { userId: string } };

/** No personal data: the person's values in the history read as erased once their key is gone. */
export type MemberErased = { type: 'MemberErased'; data: { userId: string } };

export function eraseMember(command: EraseMember, state: ExistingOrganization): MemberErased[] {
  const userId = requireIdentifier('userId', command.data.userId);
  if (state.members.get(userId)?.role === 'owner' && state.members.owners === 1) {
    throw new DomainError('LAST_OWNER', 'The last owner cannot be erased: make someone else an owner first.', {
      userId,
    });
  }
  return [{ type: 'MemberErased', data: { userId } }];
}

export const withMemberErased = (state: ExistingOrganization, { data }: MemberErased): ExistingOrganization => {
  const members = state.members.without(data.userId);
  return members === state.members ? state : { ...state, members };
};
