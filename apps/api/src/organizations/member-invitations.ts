import type { CommandContext } from '#application';
import type { RecordedEvent } from '#event-store';
import type { CommandResult } from './command-result.js';

/** `pending` whether an invitation or a notice goes out, so the answer says nothing about who has an account. */
export type InvitationMailAnswer = 'pending' | 'none';

/** Provided by the identity module (docs/service.md, Members); without it nobody is invited. */
export interface MemberInvitations {
  /**
   * Mailed or failed for good; one waiting for a limit or the mail server holds back every later position. At once
   * outside the server.
   */
  handledUpTo(position: bigint): Promise<void>;

  /** Refused for good (never tried again). */
  undelivered(organizationId: string, userIds: readonly string[]): Promise<UndeliveredInvitation[]>;
}

/** address_refused: not one address the mailer can send to; mail_server_refused: the mail server's 5xx answer. */
export type UndeliveredInvitation = {
  userId: string;
  email: string;
  reason: 'address_refused' | 'mail_server_refused';
  responseCode?: number;
  at: string;
};

export const MEMBER_INVITATIONS = Symbol('MEMBER_INVITATIONS');

export interface InvitationResend {
  resend(organizationId: string, userId: string, context: CommandContext): Promise<CommandResult>;
}

export const INVITATION_RESEND = Symbol('INVITATION_RESEND');

export const invitationOwedMark = { invitation: 'owed' } as const;

export const owesInvitation = (event: RecordedEvent): boolean =>
  event.type === 'MemberAdded' && event.metadata['invitation'] === invitationOwedMark.invitation;
