import { Command } from '@nestjs/cqrs';
import { type MemberRole } from '#domain';
import { type CommandContext } from '#application';
import type { CommandResult } from './command-result.js';

export type NewMember = {
  email: string;
  role: MemberRole;
  chorusUser?: boolean;
  /**
   * Known to callers that have just created the user; otherwise the address's id from the UserDirectory (reserved when
   * new).
   */
  userId?: string;
  /** MemberAdded's metadata then says `invitation: 'owed'`, and the invitation reaction mails it. */
  invite?: boolean;
};

export type AddedMemberResult = CommandResult & { userId: string; invitationOwed: boolean };

export class AddMemberCommand extends Command<AddedMemberResult> {
  constructor(
    readonly organizationId: string,
    readonly member: NewMember,
    readonly context: CommandContext,
  ) {
    super();
  }
}
