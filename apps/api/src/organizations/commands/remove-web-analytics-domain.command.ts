import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Removes a web analytics domain (WebAnalyticsDomainRemoved). */
export class RemoveWebAnalyticsDomainCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly domain: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
