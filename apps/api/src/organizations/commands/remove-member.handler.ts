import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { RemoveMemberCommand } from './remove-member.command.js';

@CommandHandler(RemoveMemberCommand)
export class RemoveMemberHandler implements ICommandHandler<RemoveMemberCommand> {
  constructor(private readonly organizations: OrganizationDecider) {}

  execute({ organizationId, userId, context }: RemoveMemberCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, { type: 'RemoveMember', data: { userId } }, context);
  }
}
