import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Adds a quality-assurance domain; needs the qualityAssurance feature (QualityAssuranceDomainAdded). */
export class AddQualityAssuranceDomainCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly domain: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
