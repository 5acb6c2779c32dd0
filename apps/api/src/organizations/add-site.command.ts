import { Command } from '@nestjs/cqrs';
import { type CommandContext } from '#application';
import type { CommandResult } from './command-result.js';

export class AddSiteCommand extends Command<CommandResult & { siteId: string }> {
  constructor(
    readonly organizationId: string,
    /** hostname as typed: the domain normalizes it. */
    readonly site: { name: string; hostname: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}
