import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { EnableChorusCommand } from './enable-chorus.command.js';

@CommandHandler(EnableChorusCommand)
export class EnableChorusHandler implements ICommandHandler<EnableChorusCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, settings, context }: EnableChorusCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'EnableChorus', data: settings }, context);
  }
}
