import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from './command-result.js';
import { ChangeOrganizationCommand } from './change-organization.command.js';
import { Organizations } from './organizations.service.js';

@CommandHandler(ChangeOrganizationCommand)
export class ChangeOrganizationHandler implements ICommandHandler<ChangeOrganizationCommand> {
  constructor(private readonly organizations: Organizations) {}

  execute({ organizationId, change, context }: ChangeOrganizationCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, change, context);
  }
}
