import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { RemoveQualityAssuranceDomainCommand } from './remove-quality-assurance-domain.command.js';

@CommandHandler(RemoveQualityAssuranceDomainCommand)
export class RemoveQualityAssuranceDomainHandler implements ICommandHandler<RemoveQualityAssuranceDomainCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, domain, context }: RemoveQualityAssuranceDomainCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'RemoveQualityAssuranceDomain', data: { domain } }, context);
  }
}
