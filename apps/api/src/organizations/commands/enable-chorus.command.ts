import { Command } from '@nestjs/cqrs';
import type { EnableChorus } from '#domain';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Turns the Chorus line on, optionally in parallel use (ChorusEnabled). */
export class EnableChorusCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly settings: EnableChorus['data'],
    readonly context: CommandContext,
  ) {
    super();
  }
}
