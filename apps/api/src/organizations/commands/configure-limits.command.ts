import { Command } from '@nestjs/cqrs';
import type { ConfigureLimits } from '#domain';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Sets or clears configured limits and the override flag (LimitsConfigured). */
export class ConfigureLimitsCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly limits: ConfigureLimits['data'],
    readonly context: CommandContext,
  ) {
    super();
  }
}
