import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { RemoveSiteCommand } from './remove-site.command.js';

@CommandHandler(RemoveSiteCommand)
export class RemoveSiteHandler implements ICommandHandler<RemoveSiteCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, siteId, context }: RemoveSiteCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'RemoveSite', data: { siteId } }, context);
  }
}
