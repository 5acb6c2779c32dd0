import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { AddWebAnalyticsDomainCommand } from './add-web-analytics-domain.command.js';

@CommandHandler(AddWebAnalyticsDomainCommand)
export class AddWebAnalyticsDomainHandler implements ICommandHandler<AddWebAnalyticsDomainCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, domain, context }: AddWebAnalyticsDomainCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'AddWebAnalyticsDomain', data: { domain } }, context);
  }
}
