import { Command } from '@nestjs/cqrs';
import type { MemberRole } from '#domain';
import type { CommandContext } from '#application';
import type { CommandResult } from '../command-result.js';

export type NewMember = {
  email: string;
  role: MemberRole;
  chorusUser?: boolean;
  /** Known to callers that have just created the user; otherwise the address's id from USER_DIRECTORY (reserved when new). */
  userId?: string;
  /**
   * The member is owed a mail (the members route): MemberAdded then says so in its metadata (`invitation:
   * 'owed'`), and the invitation reaction mails an invitation, or a notice when the address has an account.
   */
  invite?: boolean;
};

/** What an add answers: the member's user id, and whether MemberAdded owes them an invitation. */
export type AddedMemberResult = CommandResult & { userId: string; invitationOwed: boolean };

/** Adds a member within the users limit (MemberAdded); answers the member's user id. */
export class AddMemberCommand extends Command<AddedMemberResult> {
  constructor(
    readonly organizationId: string,
    readonly member: NewMember,
    readonly context: CommandContext,
  ) {
    super();
  }
}
