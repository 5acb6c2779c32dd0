import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { CancelAddOnCommand } from './cancel-add-on.command.js';

@CommandHandler(CancelAddOnCommand)
export class CancelAddOnHandler implements ICommandHandler<CancelAddOnCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, cancellation, context }: CancelAddOnCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'CancelAddOn', data: cancellation }, context);
  }
}
