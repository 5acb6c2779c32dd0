import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type OrganizationCommandOf } from '#domain';
import { UserDirectory } from '#identity';
import { invitationOwedMark } from './member-invitations.js';
import { AddMemberCommand, AddedMemberResult } from './add-member.command.js';
import { Organizations } from './organizations.service.js';

@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand> {
  constructor(
    private readonly organizations: Organizations,
    private readonly users: UserDirectory,
  ) {}

  async execute({ organizationId, member, context }: AddMemberCommand): Promise<AddedMemberResult> {
    const { email, role, chorusUser } = member;
    const addMember = (userId: string): OrganizationCommandOf<'AddMember'> => ({
      type: 'AddMember',
      data: chorusUser === undefined ? { userId, email, role } : { userId, email, role, chorusUser },
    });
    const invitationOwed = member.invite === true;
    const marked = invitationOwed ? { ...context, origin: { ...context.origin, ...invitationOwedMark } } : context;
    const existing = member.userId ?? (await this.users.idOfEmail(email));
    if (existing !== undefined)
      return {
        ...(await this.organizations.handle(organizationId, addMember(existing), marked)),
        userId: existing,
        invitationOwed,
      };
    // A new address's id is reserved only once the add would be accepted, and before it is recorded on that same loaded
    // state.
    let userId: string = randomUUID();
    for (;;) {
      const loaded = await this.organizations.load(organizationId);
      if (this.organizations.wouldRecord(addMember(userId), loaded.state, context)) {
        const held = await this.users.reserveIdForEmail(email, userId, context);
        // Someone reserved or registered the address meanwhile: the member is theirs.
        if (held !== userId) {
          userId = held;
          continue;
        }
      }
      const result = await this.organizations.handle(organizationId, addMember(userId), marked, { known: loaded });
      return { ...result, userId, invitationOwed };
    }
  }
}
