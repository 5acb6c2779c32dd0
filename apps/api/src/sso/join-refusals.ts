// A person of an organization's domain whom the users limit kept out, whichever way they came in (a password, Google,
// single sign-on): the owners hear of it at most once a day (AutomaticJoinRefused, naming no one), and so does the
// person, about that organization (JoinRefusalNoticeOwed). Both mails go out from the owner-mails reaction.
import { Inject, Injectable } from '@nestjs/common';
import { handleCommand, type CommandContext } from '#application';
import { joinRefusalNoticeDecider, joinRefusalNoticeId } from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { normalizeEmail, type Identity } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { AppClock } from '../config/app-clock.js';
import { Organizations } from '../organizations/organizations.service.js';

/** `userId` when the person has an account; without one (a refused single sign-on) only the address names them. */
export type RefusedPerson = { userId: string | undefined; email: string };

/** Whose notice it is: the user id, or, refused before they had an account, the keyed hash of their address. */
export const refusedPersonKey = (identity: Identity, { userId, email }: RefusedPerson): string =>
  userId ?? identity.identifierNames.keyedId('email', normalizeEmail(email));

@Injectable()
export class JoinRefusals {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly organizations: Organizations,
    private readonly clock: AppClock,
  ) {}

  async record(organizationId: string, domain: string, person: RefusedPerson, context: CommandContext): Promise<void> {
    const on = this.clock.now().toISOString().slice(0, 10);
    await this.organizations.handle(
      organizationId,
      { type: 'RecordAutomaticJoinRefusal', data: { domain, on } },
      context,
    );
    const { userId, email } = person;
    const personKey = refusedPersonKey(this.identity, person);
    const data = { organizationId, domain, on, ...(userId === undefined ? { email } : { userId }) };
    await handleCommand(
      this.store,
      joinRefusalNoticeDecider,
      joinRefusalNoticeId(organizationId, personKey),
      { type: 'OweJoinRefusalNotice', data },
      context,
    );
  }
}
