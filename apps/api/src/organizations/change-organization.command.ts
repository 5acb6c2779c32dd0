import { Command } from '@nestjs/cqrs';
import { type OrganizationCommand } from '#domain';
import { type CommandContext } from '#application';
import type { CommandResult } from './command-result.js';

/** Any domain command, decided as is; commands whose handler chooses or resolves ids have their own class. */
export class ChangeOrganizationCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly change: OrganizationCommand,
    readonly context: CommandContext,
  ) {
    super();
  }
}
