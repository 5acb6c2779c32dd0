import { randomUUID } from 'node:crypto';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandContext } from '#application';
import type { CommandResult } from '../command-result.js';
import { Organizations } from '../organizations.js';

/** Creates an organization under the given id, or a new uuid (OrganizationCreated). */
export class CreateOrganizationCommand extends Command<CommandResult> {
  constructor(
    readonly organization: { id?: string; name: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand> {
  constructor(private readonly organizations: Organizations) {}

  execute({ organization, context }: CreateOrganizationCommand): Promise<CommandResult> {
    const id = organization.id ?? randomUUID();
    return this.organizations.handle(id, { type: 'CreateOrganization', data: { id, name: organization.name } }, context);
  }
}
