import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { OrganizationCommandOf } from '#domain';
import type { UserDirectory } from '#identity';
import { invitationOwedMark } from '../member-invitations.js';
import { Organizations } from '../organizations.js';
import { USER_DIRECTORY } from '../user-directory.js';
import { AddMemberCommand, type AddedMemberResult } from './add-member.command.js';

@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand> {
  constructor(
    private readonly organizations: Organizations,
    @Inject(USER_DIRECTORY) private readonly users: UserDirectory,
  ) {}

  async execute({ organizationId, member, context }: AddMemberCommand): Promise<AddedMemberResult> {
    const { email, role, chorusUser } = member;
    const addMember = (userId: string): OrganizationCommandOf<'AddMember'> => ({ type: 'AddMember', data: chorusUser === undefined ? { userId, email, role } : { userId, email, role, chorusUser } });
    if (member.userId !== undefined) {
      return { ...(await this.organizations.handle(organizationId, addMember(member.userId), context)), userId: member.userId, invitationOwed: false };
    }
    // Decide first: a refused add records nothing, not even the id the address would have had reserved.
    // (Any id not yet a member stands in for the address's: duplicates by address are found either way.)
    // The decision that records is then made on the organization as loaded here: read once, not twice.
    const loaded = await this.organizations.loadIfAccepted(organizationId, addMember(randomUUID()), context);
    // Registered or not, the member is mailed (an invitation or a notice): the answer must not tell them apart.
    const { userId } = await this.users.memberForEmail(email, context);
    const invitationOwed = member.invite === true;
    const options = { known: loaded, ...(invitationOwed ? { marks: invitationOwedMark } : {}) };
    const result = await this.organizations.handle(organizationId, addMember(userId), context, options);
    return { ...result, userId, invitationOwed };
  }
}
