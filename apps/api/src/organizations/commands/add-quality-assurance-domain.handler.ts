import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { AddQualityAssuranceDomainCommand } from './add-quality-assurance-domain.command.js';

@CommandHandler(AddQualityAssuranceDomainCommand)
export class AddQualityAssuranceDomainHandler implements ICommandHandler<AddQualityAssuranceDomainCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, domain, context }: AddQualityAssuranceDomainCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'AddQualityAssuranceDomain', data: { domain } }, context);
  }
}
