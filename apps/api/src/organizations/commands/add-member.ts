import { randomUUID } from 'node:crypto';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import type { MemberRole, OrganizationCommandOf } from '#domain';
import type { CommandContext } from '#application';
import type { UserDirectory } from '#identity';
import type { CommandResult } from '../command-result.js';
import { invitationOwedMark } from '../member-invitations.js';
import { Organizations, type OrganizationDecision } from '../organizations.js';
import { USER_DIRECTORY } from '../user-directory.js';

export type NewMember = {
  email: string;
  role: MemberRole;
  chorusUser?: boolean;
  /** Known to callers that have just created the user; otherwise the address's id from USER_DIRECTORY (reserved when new). */
  userId?: string;
  /**
   * The member is owed a mail (the members route): MemberAdded then says so in its metadata (`invitation:
   * 'owed'`), and the invitation reaction mails an invitation, or a notice when the address has an account.
   */
  invite?: boolean;
};

/** What an add answers: the member's user id, and whether MemberAdded owes them an invitation. */
export type AddedMemberResult = CommandResult & { userId: string; invitationOwed: boolean };

/** Adds a member within the users limit (MemberAdded); answers the member's user id. */
export class AddMemberCommand extends Command<AddedMemberResult> {
  constructor(
    readonly organizationId: string,
    readonly member: NewMember,
    readonly context: CommandContext,
  ) {
    super();
  }
}

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
    // The address's id if it has one; else a new one, reserved for the address only once the add is accepted
    // (a refused add records nothing). Registered or not, the member is mailed: the answer must not tell them apart.
    const existing = await this.users.idOfEmail(email);
    let userId = existing ?? randomUUID();
    const reserved = new Set(existing === undefined ? [] : [existing]);
    const decision: OrganizationDecision = async (_state, decideOn) => {
      const events = decideOn(addMember(userId));
      if (events.length === 0 || reserved.has(userId)) return events;
      const held = await this.users.reserveIdForEmail(email, userId, context);
      reserved.add(held);
      if (held === userId) return events;
      // Someone reserved or registered the address meanwhile: the member is theirs.
      userId = held;
      return decideOn(addMember(userId));
    };
    const invitationOwed = member.invite === true;
    const result = await this.organizations.handleDecision(organizationId, 'AddMember', decision, context, invitationOwed ? { marks: invitationOwedMark } : {});
    return { ...result, userId, invitationOwed };
  }
}
