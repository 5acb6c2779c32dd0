import { Command } from '@nestjs/cqrs';
import type { OrganizationCommand } from '#domain';
import type { CommandContext } from '#application';
import type { CommandResult } from '../command-result.js';

/**
 * Any command of the domain on an existing organization, decided as it is:
 * `new ChangeOrganizationCommand(id, { type: 'AssignPlan', data: { line, plan } }, context)`.
 * Commands whose handler has work of its own (choosing or resolving ids) have their own class.
 */
export class ChangeOrganizationCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly change: OrganizationCommand,
    readonly context: CommandContext,
  ) {
    super();
  }
}
