import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../command-context.js';
import type { CommandResult } from '../command-result.js';

/** Removes a quality-assurance domain (QualityAssuranceDomainRemoved). */
export class RemoveQualityAssuranceDomainCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly domain: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
