// The audit explorer's reads: the history index finds the events; each is read from the store, the record.
import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import { EVENT_TYPE_NAMES, NO_NAMES, ORGANIZATION_EVENT_TYPES, organizationStream, type RecordNames } from '#domain';
import {
  READ_MODELS,
  ReadModels,
  type HistoryFilter,
  type HistoryOrder,
  type OrganizationHistoryQueries,
} from '#read-models';
import { actorInWords } from './actor-in-words.js';
import { ActorNameLookup } from './actor-name-lookup.js';
import { billingEventSentence } from './billing-event-sentence.js';
import { organizationNotFound } from './organization-history.js';
import { namedActorsOf, timelineEntry, type TimelineEntry } from './timeline-entry.js';
import { jsonSafe } from '../http/json-safe.js';

export const DEFAULT_TIMELINE_PAGE_SIZE = 50;
export const MAX_TIMELINE_PAGE_SIZE = 200;
export const MAX_CORRELATED_ENTRIES = 1_000;

export type TimelineRequest = { order: HistoryOrder; after?: bigint; limit: number; filter: HistoryFilter };

export type TimelinePage = {
  organizationId: string;
  order: HistoryOrder;
  entries: TimelineEntry[];
  next: number | string | null;
};

export type HistoryFilters = {
  types: { type: string; name: string }[];
  actors: { actor: string; name: string }[];
};

export type CorrelatedEntry = TimelineEntry & { streamId: string };

export type OrganizationCorrelation = {
  organizationId: string;
  correlationId: string;
  entries: CorrelatedEntry[];
  hasMore: boolean;
};

const billingStreamPrefix = 'billing-';

function indexedNames(history: OrganizationHistoryQueries, organizationId: string, revision: bigint): RecordNames {
  return {
    memberEmail: (userId) => history.nameOf(organizationId, 'member', userId, revision)?.name,
    site: (siteId) => {
      const site = history.nameOf(organizationId, 'site', siteId, revision);
      return site === undefined ? undefined : { name: site.name, hostname: site.detail ?? '' };
    },
  };
}

@Injectable()
export class OrganizationTimeline {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    private readonly actorNames: ActorNameLookup,
  ) {}

  async page(organizationId: string, { order, after, limit, filter }: TimelineRequest): Promise<TimelinePage> {
    const found = this.readModels.history.page({
      organizationId,
      order,
      limit,
      filter,
      ...(after === undefined ? {} : { after }),
    });
    if (found.events.length === 0) await this.mustExist(organizationId);
    const events = await this.read(organizationStream(organizationId), found.events);
    const entries = await this.entries(organizationId, events);
    const last = found.events.at(-1);
    return {
      organizationId,
      order,
      entries,
      next: found.hasMore && last !== undefined ? jsonSafe(last.revision) : null,
    };
  }

  async filters(organizationId: string): Promise<HistoryFilters> {
    const actors = this.readModels.history.actors(organizationId);
    if (actors.length === 0) await this.mustExist(organizationId);
    const actorNames = await this.actorNames.namesOf(organizationId, actors);
    const latest = this.readModels.history.latestRevision(organizationId) ?? 0n;
    const names = indexedNames(this.readModels.history, organizationId, latest);
    return {
      types: ORGANIZATION_EVENT_TYPES.map((type) => ({ type, name: EVENT_TYPE_NAMES[type] })),
      actors: actors
        .map((actor) => ({
          actor,
          name: actorInWords(actor, { memberEmail: names.memberEmail, nameOf: (named) => actorNames.get(named) }),
        }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    };
  }

  /** Another organization's events are never read, so a guessed or shared id answers exactly what a fresh one would. */
  async correlation(organizationId: string, correlationId: string): Promise<OrganizationCorrelation> {
    await this.mustExist(organizationId);
    const stream = organizationStream(organizationId);
    const locations = this.readModels.correlations.eventsIn(
      correlationId,
      stream,
      billingStreamPrefix,
      MAX_CORRELATED_ENTRIES + 1,
    );
    const events = await Promise.all(
      locations.map((location) => this.readOne(location.streamId, location.revision, location.eventId)),
    );
    const concerned = events.filter(
      (event) =>
        event.streamId === stream ||
        (event.data as { organizationId?: unknown } | null)?.organizationId === organizationId,
    );
    const keyNames = await this.actorNames.namesOf(organizationId, namedActorsOf(concerned));
    const entries = concerned.slice(0, MAX_CORRELATED_ENTRIES).map((event): CorrelatedEntry =>
      event.streamId === stream
        ? {
            ...timelineEntry(event, indexedNames(this.readModels.history, organizationId, event.revision), keyNames),
            streamId: event.streamId,
          }
        : {
            ...timelineEntry(event, NO_NAMES, keyNames),
            description: billingEventSentence(event.type, event.data),
            streamId: event.streamId,
          },
    );
    return { organizationId, correlationId, entries, hasMore: concerned.length > MAX_CORRELATED_ENTRIES };
  }

  private async entries(organizationId: string, events: readonly RecordedEvent[]): Promise<TimelineEntry[]> {
    const keyNames = await this.actorNames.namesOf(organizationId, namedActorsOf(events));
    return events.map((event) =>
      timelineEntry(event, indexedNames(this.readModels.history, organizationId, event.revision), keyNames),
    );
  }

  private async mustExist(organizationId: string): Promise<void> {
    const read = await this.store.readStream(organizationStream(organizationId), { maxCount: 1 });
    if (!read.found) throw organizationNotFound();
  }

  private async read(
    streamId: string,
    located: readonly { revision: bigint; eventId: string }[],
  ): Promise<RecordedEvent[]> {
    const byRevision = new Map<bigint, RecordedEvent>();
    const revisions = located.map((event) => event.revision).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (let start = 0; start < revisions.length;) {
      let end = start;
      while (end + 1 < revisions.length && revisions[end + 1] === (revisions[end] as bigint) + 1n) end += 1;
      const fromRevision = revisions[start] as bigint;
      const read = await this.store.readStream(streamId, { fromRevision, maxCount: end - start + 1 });
      for (const event of read.found ? read.events : []) byRevision.set(event.revision, event);
      start = end + 1;
    }
    return located.map((location) => {
      const event = byRevision.get(location.revision);
      if (event === undefined || event.id !== location.eventId)
        throw new Error(
          `The history index points at ${streamId}@${location.revision}, which is not event ${location.eventId}`,
        );
      return event;
    });
  }

  private async readOne(streamId: string, revision: bigint, eventId: string): Promise<RecordedEvent> {
    const [event] = await this.read(streamId, [{ revision, eventId }]);
    return event as RecordedEvent;
  }
}
