import { recordedEventSentence, type RecordNames } from '#domain';
import type { RecordedEvent } from '#event-store';
import { jsonSafe } from '../http/json-safe.js';
import { actorInWords, actorParts } from './actor-in-words.js';

export type TimelineEntry = {
  recordedAt: string;
  revision: number | string;
  position: number | string;
  type: string;
  description: string;
  /** As recorded: `user:<id>`, `api-key:<id>`, `billing`, `cli`. */
  actor: string;
  actorName: string;
  correlationId: string | null;
};

export const TIMELINE_FIELDS = [
  'recordedAt',
  'revision',
  'position',
  'type',
  'description',
  'actor',
  'actorName',
  'correlationId',
] as const satisfies readonly (keyof TimelineEntry)[];

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export const actorOf = (event: RecordedEvent): string => text(event.metadata.actor) ?? 'unknown';

/** The actors among these events known by a name of their own: API keys and directory tokens. */
export function namedActorsOf(events: Iterable<RecordedEvent>): Set<string> {
  const actors = new Set<string>();
  for (const event of events) {
    const actor = actorOf(event);
    const [kind, id] = actorParts(actor);
    if ((kind === 'api-key' || kind === 'scim') && id !== '') actors.add(actor);
  }
  return actors;
}

/** `names`: the record just before the event (removed members and sites, and the user who acted, are named by it). */
export function timelineEntry(
  event: RecordedEvent,
  names: RecordNames,
  actorNames: ReadonlyMap<string, string>,
): TimelineEntry {
  const actor = actorOf(event);
  return {
    recordedAt: event.recordedAt,
    revision: jsonSafe(event.revision),
    position: jsonSafe(event.position),
    type: event.type,
    description: recordedEventSentence(event.type, event.data, names),
    actor,
    actorName: actorInWords(actor, {
      memberEmail: (userId) => names.memberEmail(userId),
      nameOf: (named) => actorNames.get(named),
    }),
    correlationId: text(event.metadata.correlationId) ?? null,
  };
}
