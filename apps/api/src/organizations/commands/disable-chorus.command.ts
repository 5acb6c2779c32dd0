import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Turns the Chorus line off, keeping its parallel-use setting (ChorusDisabled). */
export class DisableChorusCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
