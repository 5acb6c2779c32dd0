import { Inject, Optional } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandResult } from '../command-result.js';
import { OrganizationDecider } from '../organization-decider.service.js';
import { USER_DIRECTORY, noUserDirectory, type UserDirectory } from '../user-directory.js';
import { AddMemberCommand } from './add-member.command.js';

@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand> {
  private readonly users: UserDirectory;

  constructor(
    private readonly organizations: OrganizationDecider,
    @Optional() @Inject(USER_DIRECTORY) users?: UserDirectory,
  ) {
    this.users = users ?? noUserDirectory;
  }

  async execute({ organizationId, member, context }: AddMemberCommand): Promise<CommandResult & { userId: string }> {
    const { email, role, chorusUser } = member;
    const userId = member.userId ?? (await this.users.userIdForEmail(email, context));
    const data = chorusUser === undefined ? { userId, email, role } : { userId, email, role, chorusUser };
    const result = await this.organizations.handle(organizationId, { type: 'AddMember', data }, context);
    return { ...result, userId };
  }
}
