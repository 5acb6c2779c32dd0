import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { PurchaseAddOnCommand } from './purchase-add-on.command.js';

@CommandHandler(PurchaseAddOnCommand)
export class PurchaseAddOnHandler implements ICommandHandler<PurchaseAddOnCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, purchase, context }: PurchaseAddOnCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'PurchaseAddOn', data: purchase }, context);
  }
}
