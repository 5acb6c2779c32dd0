import type { CommandContext, RecordedEvent } from '#event-store';
import type { CommandResult } from './command-result.js';

/**
 * What the members route answers about the invitation: `pending` when the address has no account (the
 * invitation reaction mails it, at least once, after the answer), `registered` when it has one (nothing
 * is sent).
 */
export type InvitationOutcome = 'pending' | 'registered';

/**
 * Invites members added by an address nobody has registered with (CONSOLE.md, Members): a reaction to
 * MemberAdded recorded with `invitation: 'owed'` in its metadata. The identity module provides it
 * (from a @Global() module), as it provides USER_DIRECTORY; without it nobody is invited.
 */
export interface MemberInvitations {
  /**
   * Resolves once every invitation owed by MemberAdded events up to `position` (a MemberAdded's, as an add
   * answers it) has been handled: mailed, throttled or found registered. At once outside the server.
   */
  handledUpTo(position: bigint): Promise<void>;
}

export const MEMBER_INVITATIONS = Symbol('MEMBER_INVITATIONS');

/** A pending member's invitation mailed again (the members route's `POST .../invitation`); the identity module provides it too. */
export interface InvitationResend {
  /** Mails it, then records InvitationResent; NOT_FOUND, FORBIDDEN, 409 ALREADY_REGISTERED or 429 RATE_LIMITED otherwise. */
  resend(organizationId: string, userId: string, context: CommandContext): Promise<CommandResult>;
}

export const INVITATION_RESEND = Symbol('INVITATION_RESEND');

/** The metadata mark of a MemberAdded that owes its member an invitation. */
export const invitationOwedMark = { invitation: 'owed' } as const;

/** The context of an add whose MemberAdded owes an invitation: the request's, marked (see invitationOwedMark). */
export const owingInvitation = (context: CommandContext): CommandContext => ({ ...context, origin: { ...context.origin, ...invitationOwedMark } });

export const owesInvitation = (event: RecordedEvent): boolean => event.type === 'MemberAdded' && event.metadata['invitation'] === invitationOwedMark.invitation;
