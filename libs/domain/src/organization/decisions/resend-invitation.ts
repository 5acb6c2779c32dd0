import { DomainError } from '../../errors.js';
import type { InvitationResent } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { requireIdentifier } from '../command-validation.js';

export type ResendInvitation = { type: 'ResendInvitation'; data: { userId: string } };

/** Only a member of this organization: an invitation is never mailed to someone the organization does not have. */
export function resendInvitation(command: ResendInvitation, state: ExistingOrganization): InvitationResent[] {
  const userId = requireIdentifier('userId', command.data.userId);
  const member = state.members.find((candidate) => candidate.userId === userId);
  if (!member) throw new DomainError('NOT_FOUND', `User ${userId} is not a member.`, { entity: 'member', userId });
  return [{ type: 'InvitationResent', data: { userId, email: member.email } }];
}
