import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Adds a web analytics domain; needs the webAnalytics feature (WebAnalyticsDomainAdded). */
export class AddWebAnalyticsDomainCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly domain: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
