import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { RemoveWebAnalyticsDomainCommand } from './remove-web-analytics-domain.command.js';

@CommandHandler(RemoveWebAnalyticsDomainCommand)
export class RemoveWebAnalyticsDomainHandler implements ICommandHandler<RemoveWebAnalyticsDomainCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, domain, context }: RemoveWebAnalyticsDomainCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'RemoveWebAnalyticsDomain', data: { domain } }, context);
  }
}
