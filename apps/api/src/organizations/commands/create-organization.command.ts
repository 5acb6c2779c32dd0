import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '#application';
import type { CommandResult } from '../command-result.js';

/** Creates an organization under the given id, or a new uuid (OrganizationCreated). */
export class CreateOrganizationCommand extends Command<CommandResult> {
  constructor(
    readonly organization: { id?: string; name: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}
