import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { OrganizationCommandOf } from '#domain';
import type { UserDirectory } from '#identity';
import type { CommandResult } from '../command-result.js';
import { Organizations } from '../organizations.js';
import { USER_DIRECTORY } from '../user-directory.js';
import { AddMemberCommand } from './add-member.command.js';

@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand> {
  constructor(
    private readonly organizations: Organizations,
    @Inject(USER_DIRECTORY) private readonly users: UserDirectory,
  ) {}

  async execute({ organizationId, member, context }: AddMemberCommand): Promise<CommandResult & { userId: string }> {
    const { email, role, chorusUser } = member;
    const addMember = (userId: string): OrganizationCommandOf<'AddMember'> => ({ type: 'AddMember', data: chorusUser === undefined ? { userId, email, role } : { userId, email, role, chorusUser } });
    let userId = member.userId;
    if (userId === undefined) {
      // Decide first: a refused add records nothing, not even the id the address would have had reserved.
      // (Any id not yet a member stands in for the address's: duplicates by address are found either way.)
      await this.organizations.check(organizationId, addMember(randomUUID()), context);
      userId = await this.users.userIdForEmail(email, context);
    }
    const result = await this.organizations.handle(organizationId, addMember(userId), context);
    return { ...result, userId };
  }
}
