import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { DisableChorusCommand } from './disable-chorus.command.js';

@CommandHandler(DisableChorusCommand)
export class DisableChorusHandler implements ICommandHandler<DisableChorusCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, context }: DisableChorusCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'DisableChorus', data: {} }, context);
  }
}
