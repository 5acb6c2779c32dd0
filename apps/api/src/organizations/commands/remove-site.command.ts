import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Removes a site (SiteRemoved). */
export class RemoveSiteCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly siteId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
