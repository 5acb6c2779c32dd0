import type { CommandContext } from '#event-store';

/** A member just added by e-mail address (MemberAdded recorded), whom an invitation may be owed. */
export type AddedMember = { organizationId: string; userId: string; email: string };

/** sent: mailed; registered: the address has an account, nothing to send; throttled: too many this hour; failed: the mail could not be sent. */
export type InvitationOutcome = 'sent' | 'registered' | 'throttled' | 'failed';

/**
 * Invites a member added by an address nobody has registered with (CONSOLE.md, Members). The identity
 * module provides it (from a @Global() module), as it provides USER_DIRECTORY; without it nobody is invited.
 */
export interface MemberInvitations {
  invite(member: AddedMember, context: CommandContext): Promise<InvitationOutcome>;
}

export const MEMBER_INVITATIONS = Symbol('MEMBER_INVITATIONS');
