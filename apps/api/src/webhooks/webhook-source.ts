// What an endpoint is sent, in the log's order: the organization's own events (its stream, read after the cursor's
// revision) and its members' own events (sign-ins, factors, sessions: found through this node's member-security
// index, read after the cursor's position). The index is a read model, so the organization's events are merged only
// up to where it has read the log: a sign-in recorded before an organization event is never sent after it.
import { Inject, Injectable } from '@nestjs/common';
import {
  DomainError,
  memberActivityOf,
  organizationStream,
  webhookEventOf,
  type WebhookCursor,
  type WebhookEvent,
} from '#domain';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import { memberSecurityProjectionName, READ_MODELS, type ReadModels } from '#read-models';

/** An event to send or pass over, with the cursor once it is done. */
export type PendingEvent = {
  event: RecordedEvent;
  /** Undefined: not in the catalogue, passed over. */
  webhook: WebhookEvent | undefined;
  /** A member's own event: the person. */
  member: string | undefined;
  /** The organization's revision just before the event, for the names its sentence needs. */
  revisionBefore: bigint;
  upTo: WebhookCursor;
};

/** How long a sender waits for this node's index to reach an organization event before it looks again. */
const INDEX_WAIT_MS = 1_000;

@Injectable()
export class WebhookSource {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  /** `held`: events of the organization wait for this node's index to reach them. */
  async pending(
    organizationId: string,
    after: WebhookCursor,
    limit: number,
  ): Promise<{ items: PendingEvent[]; held: boolean }> {
    const page = await this.store.readStream(organizationStream(organizationId), {
      fromRevision: after.revision + 1n,
      maxCount: limit,
    });
    const own = page.found ? page.events : [];
    const first = own[0];
    if (first !== undefined && this.indexedUpTo() < first.position)
      await this.readModels.waitForPosition(first.position, INDEX_WAIT_MS);
    // A later event of the organization comes after the page's last one; members' events up to it can be merged.
    const full = own.length === limit;
    const indexed = this.indexedUpTo();
    const last = own.at(-1);
    const bound = full && last !== undefined && last.position < indexed ? last.position : indexed;
    const members = await this.memberEvents(organizationId, after.position, bound, limit);
    const merged = [
      ...own.filter((event) => event.position <= bound).map((event) => ({ event, member: undefined })),
      ...members,
    ].sort((a, b) => (a.event.position < b.event.position ? -1 : a.event.position > b.event.position ? 1 : 0));
    let revision = after.revision;
    const held = own.some((event) => event.position > bound);
    const items = merged.slice(0, limit).map(({ event, member }): PendingEvent => {
      const revisionBefore = revision;
      if (member === undefined) {
        revision = event.revision;
        return {
          event,
          webhook: webhookEventOf(event.type, event.data),
          member,
          revisionBefore,
          upTo: { revision, position: event.position },
        };
      }
      const webhook = memberActivityOf(event.streamId, event.type, event.data)?.event;
      return { event, webhook, member, revisionBefore, upTo: { revision, position: event.position } };
    });
    return { items, held };
  }

  /** Where a delivery from `position` (inclusive) starts: just before it. */
  async cursorAtPosition(organizationId: string, position: bigint): Promise<WebhookCursor> {
    return {
      revision: await this.revisionBefore(organizationId, (event) => event.position >= position),
      position: position - 1n,
    };
  }

  /**
   * Where a delivery from `time` (inclusive) starts: before the first event, the organization's or a member's, recorded
   * then or later.
   */
  async cursorAtTime(organizationId: string, time: Date): Promise<WebhookCursor> {
    const revision = await this.revisionBefore(
      organizationId,
      (event) => Date.parse(event.recordedAt) >= time.getTime(),
    );
    const next = await this.store.readStream(organizationStream(organizationId), {
      fromRevision: revision + 1n,
      maxCount: 1,
    });
    const ownFirst = next.found ? next.events[0]?.position : undefined;
    const memberFirst = this.readModels.memberSecurity.firstAtOrAfter(organizationId, time.toISOString());
    const firsts = [ownFirst, memberFirst].filter((position): position is bigint => position !== undefined);
    if (firsts.length === 0) return this.cursorNow(organizationId);
    return { revision, position: firsts.reduce((min, position) => (position < min ? position : min)) - 1n };
  }

  /** Only what comes next. */
  async cursorNow(organizationId: string): Promise<WebhookCursor> {
    const revision = await this.lastRevision(organizationId);
    return { revision, position: (await this.store.headPosition()) ?? -1n };
  }

  async lastRevision(organizationId: string): Promise<bigint> {
    const last = await this.store.readStream(organizationStream(organizationId), {
      direction: 'backwards',
      maxCount: 1,
    });
    const event = last.found ? last.events[0] : undefined;
    if (event === undefined)
      throw new DomainError('NOT_FOUND', `No organization has the id ${organizationId}.`, { entity: 'organization' });
    return event.revision;
  }

  private indexedUpTo(): bigint {
    return this.readModels.statuses().find((status) => status.name === memberSecurityProjectionName)?.checkpoint ?? -1n;
  }

  /** Each read from its own stream; one not found there as indexed is left out rather than sent wrong. */
  private async memberEvents(
    organizationId: string,
    after: bigint,
    upTo: bigint,
    limit: number,
  ): Promise<{ event: RecordedEvent; member: string }[]> {
    const located = this.readModels.memberSecurity.after(organizationId, after, upTo, limit);
    const read = await Promise.all(
      located.map(async ({ streamId, revision, position, userId }) => {
        const page = await this.store.readStream(streamId, { fromRevision: revision, maxCount: 1 });
        const event = page.found ? page.events[0] : undefined;
        return event !== undefined && event.position === position ? [{ event, member: userId }] : [];
      }),
    );
    return read.flat();
  }

  /** The revision before the first event `from` selects; the last revision when none does (only what comes next). */
  private async revisionBefore(organizationId: string, from: (event: RecordedEvent) => boolean): Promise<bigint> {
    const last = await this.lastRevision(organizationId);
    for (let fromRevision = 0n; fromRevision <= last;) {
      const page = await this.store.readStream(organizationStream(organizationId), { fromRevision, maxCount: 1_000 });
      if (!page.found || page.events.length === 0) break;
      const first = page.events.find(from);
      if (first !== undefined) return first.revision - 1n;
      fromRevision = (page.events.at(-1)?.revision ?? last) + 1n;
    }
    return last;
  }
}
