// The audit explorer's "Sign-in security" (docs/console.md, History): the two-step sign-in events of the
// organization's members while they were its members, newest first. The index finds them; each is read from the
// member's own stream, the record, and said in words.
import { Inject, Injectable } from '@nestjs/common';
import { memberSecuritySentence, userStream, type SecondFactorEvent } from '#domain';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import { READ_MODELS, ReadModels } from '#read-models';
import { jsonSafe } from '../http/json-safe.js';
import { actorInWords } from './actor-in-words.js';
import { ActorNameLookup } from './actor-name-lookup.js';
import { actorOf, namedActorsOf } from './timeline-entry.js';

export type MemberSecurityEntry = {
  recordedAt: string;
  position: number | string;
  type: string;
  /** "Second step failed: a wrong code from the authenticator app". */
  description: string;
  member: { userId: string; email: string };
  actor: string;
  actorName: string;
  correlationId: string | null;
};

export type MemberSecurityPage = {
  organizationId: string;
  entries: MemberSecurityEntry[];
  next: number | string | null;
};

export const DEFAULT_MEMBER_SECURITY_PAGE_SIZE = 50;

@Injectable()
export class MemberSecurity {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly actorNames: ActorNameLookup,
  ) {}

  async page(organizationId: string, limit: number, before?: bigint): Promise<MemberSecurityPage> {
    const located = this.readModels.memberSecurity.page(organizationId, limit + 1, before);
    const shown = located.slice(0, limit);
    // Each from its member's stream, read at once; the index only says where: an event not found there as indexed
    // is left out rather than shown wrong.
    const read = await Promise.all(
      shown.map(async (location) => {
        const page = await this.store.readStream(userStream(location.userId), {
          fromRevision: location.revision,
          maxCount: 1,
        });
        const event = page.found ? page.events[0] : undefined;
        return event !== undefined && event.position === location.position ? [{ location, event }] : [];
      }),
    );
    const events: { location: (typeof shown)[number]; event: RecordedEvent }[] = read.flat();
    const keyNames = await this.actorNames.namesOf(organizationId, namedActorsOf(events.map(({ event }) => event)));
    // The member acts on their own account, an owner on a member's: both named by their address in this organization.
    const names = {
      memberEmail: (userId: string) => this.readModels.memberSecurity.memberEmail(organizationId, userId),
      nameOf: (actor: string) => keyNames.get(actor),
    };
    const entries = events.map(({ location, event }) => {
      const actor = actorOf(event);
      return {
        recordedAt: event.recordedAt,
        position: jsonSafe(event.position),
        type: event.type,
        description: memberSecuritySentence({ type: event.type, data: event.data } as SecondFactorEvent),
        member: { userId: location.userId, email: location.email },
        actor,
        actorName: actorInWords(actor, names),
        correlationId: typeof event.metadata.correlationId === 'string' ? event.metadata.correlationId : null,
      };
    });
    const last = shown.at(-1);
    return {
      organizationId,
      entries,
      next: located.length > limit && last !== undefined ? jsonSafe(last.position) : null,
    };
  }
}
