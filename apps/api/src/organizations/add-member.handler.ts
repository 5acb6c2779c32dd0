import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { handleDecision, PersonalKeys, withdrawn } from '#application';
import { organizationStream, type OrganizationCommandOf } from '#domain';
import { EVENT_STORE, PERSONAL_KEYS, type EventStore } from '#event-store';
import { UserDirectory } from '#identity';
import { AddMemberCommand, type AddedMemberResult } from './add-member.command.js';
import { invitationOwedMark } from './member-invitations.js';
import { Organizations } from './organizations.service.js';

/**
 * One decision, one append: the organization's AddMember and, for an address without an id, the reservation of a new
 * one, so a refused add reserves nothing and an accepted one is durable with its reservation.
 */
@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PERSONAL_KEYS) private readonly keys: PersonalKeys,
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
    // A new address's id comes with its key made ahead, so sealing MemberAdded costs no commit of its own.
    const proposed = member.userId === undefined ? await this.keys.newPerson() : member.userId;
    const streamId = organizationStream(organizationId);
    const handled = await handleDecision(
      this.store,
      marked,
      { serializedOn: streamId, commandType: 'AddMember' },
      async (reads) => {
        const organization = await this.organizations.readFor(reads, organizationId, marked);
        const { userId, reservation } =
          member.userId === undefined
            ? await this.users.reservationIn(reads, email, proposed)
            : { userId: member.userId, reservation: undefined };
        const addition = organization.decide(addMember(userId));
        const reserved =
          reservation === undefined || addition.decided.length > 0 ? reservation : withdrawn(reservation);
        return { changes: [reserved, addition], result: { userId, organization } };
      },
    );
    const { userId, organization } = handled.result;
    if (userId !== proposed) this.keys.giveBack(proposed);
    const at = handled.applied.find((change) => change.streamId === streamId) ?? organization;
    return {
      id: organizationId,
      revision: at.revision ?? -1n,
      position: at.position ?? -1n,
      userId,
      invitationOwed,
    };
  }
}
