import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { OrganizationCommand } from '#domain';
import type { CommandContext } from '#application';
import type { CommandResult } from '../command-result.js';
import { Organizations } from '../organizations.js';

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

@CommandHandler(ChangeOrganizationCommand)
export class ChangeOrganizationHandler implements ICommandHandler<ChangeOrganizationCommand> {
  constructor(private readonly organizations: Organizations) {}

  execute({ organizationId, change, context }: ChangeOrganizationCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, change, context);
  }
}
