import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from './command-result.js';
import { CreateOrganizationCommand } from './create-organization.command.js';
import { Organizations } from './organizations.service.js';

@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand> {
  constructor(private readonly organizations: Organizations) {}

  execute({ organization, context }: CreateOrganizationCommand): Promise<CommandResult> {
    const id = organization.id ?? randomUUID();
    return this.organizations.handle(
      id,
      { type: 'CreateOrganization', data: { id, name: organization.name } },
      context,
    );
  }
}
