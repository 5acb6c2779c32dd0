import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { ConfigureLimitsCommand } from './configure-limits.command.js';

@CommandHandler(ConfigureLimitsCommand)
export class ConfigureLimitsHandler implements ICommandHandler<ConfigureLimitsCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, limits, context }: ConfigureLimitsCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'ConfigureLimits', data: limits }, context);
  }
}
