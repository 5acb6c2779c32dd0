import { DomainError } from '../../errors.js';
import type { ExistingOrganization } from '../state.js';
import { requireIdentifier } from '../command-validation.js';

export type ResendInvitation = { type: 'ResendInvitation'; data: { userId: string } };

/** A pending member's invitation mailed again at someone's request (the mail itself is identity's). */
export type InvitationResent = { type: 'InvitationResent'; data: { userId: string; email: string } };

/** Only a member of this organization: an invitation is never mailed to someone the organization does not have. */
export function resendInvitation(command: ResendInvitation, state: ExistingOrganization): InvitationResent[] {
  const userId = requireIdentifier('userId', command.data.userId);
  const member = state.members.get(userId);
  if (!member) throw new DomainError('NOT_FOUND', `User ${userId} is not a member.`, { entity: 'member', userId });
  return [{ type: 'InvitationResent', data: { userId, email: member.email } }];
}

/** A mail, not a change: the organization stays as it is. */
export const withInvitationResent = (state: ExistingOrganization, _event: InvitationResent): ExistingOrganization =>
  state;
