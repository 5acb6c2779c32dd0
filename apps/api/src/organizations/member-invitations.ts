import type { CommandContext } from '#application';
import type { RecordedEvent } from '#event-store';
import type { CommandResult } from './command-result.js';

/**
 * What the members route answers about the mail the added person receives: `pending` (the reaction mails
 * them, at least once, after the answer: an invitation, or a notice when the address has an account; the
 * answer is the same either way, so that it says nothing about who has an account), `none` where no
 * reaction mails anyone (outside the server).
 */
export type InvitationMailAnswer = 'pending' | 'none';

/**
 * Mails members added through the members route (docs/service.md, Members): a reaction to MemberAdded
 * recorded with `invitation: 'owed'` in its metadata. The identity module provides it
 * (from a @Global() module), as it provides USER_DIRECTORY; without it nobody is invited.
 */
export interface MemberInvitations {
  /**
   * Resolves once every invitation owed by MemberAdded events up to `position` (a MemberAdded's, as an add
   * answers it) has been handled: mailed or failed for good (one waiting for a limit or the mail server
   * holds back every later position). At once outside the server.
   */
  handledUpTo(position: bigint): Promise<void>;

  /** Of these members, those whose last mail from the organization was refused for good (never tried again). */
  undelivered(organizationId: string, userIds: readonly string[]): Promise<UndeliveredInvitation[]>;
}

/** address_refused: not one address the mailer can send to; mail_server_refused: the mail server's 5xx answer. */
export type UndeliveredInvitation = { userId: string; email: string; reason: 'address_refused' | 'mail_server_refused'; responseCode?: number; at: string };

export const MEMBER_INVITATIONS = Symbol('MEMBER_INVITATIONS');

/** A pending member's invitation mailed again (the members route's `POST .../invitation`); the identity module provides it too. */
export interface InvitationResend {
  /** Mails it, then records InvitationResent; NOT_FOUND, FORBIDDEN, 409 ALREADY_REGISTERED or 429 RATE_LIMITED otherwise. */
  resend(organizationId: string, userId: string, context: CommandContext): Promise<CommandResult>;
}

export const INVITATION_RESEND = Symbol('INVITATION_RESEND');

/** The metadata mark of a MemberAdded that owes its member an invitation (Organizations.handle's `marks`). */
export const invitationOwedMark = { invitation: 'owed' } as const;

export const owesInvitation = (event: RecordedEvent): boolean => event.type === 'MemberAdded' && event.metadata['invitation'] === invitationOwedMark.invitation;
