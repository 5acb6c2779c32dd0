import { Command } from '@nestjs/cqrs';
import { type CommandContext } from '#application';
import type { CommandResult } from './command-result.js';

export class CreateOrganizationCommand extends Command<CommandResult> {
  constructor(
    readonly organization: { id?: string; name: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}
