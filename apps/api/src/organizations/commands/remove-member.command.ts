import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Removes a member; never the last owner (MemberRemoved). */
export class RemoveMemberCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
