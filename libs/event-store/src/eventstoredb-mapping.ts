import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  eventTypeFilter,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type AppendExpectedRevision,
  type EventData,
  type Filter,
  type JSONType,
  type Position,
  type RecordedEvent as EventStoreDbRecordedEvent,
} from '@eventstore/db-client';
import type { EventMetadata, EventToAppend, ExpectedRevision, RecordedEvent, SubscriptionFilter } from './event-store.port.js';

// The port's global position is EventStoreDB's commit position. Every gRPC append is an implicit
// transaction in which each event's commit and prepare positions are both its own log position, so the
// commit position alone orders $all; reads resume from {commit: p, prepare: p}.

/** Reads of servers that do not know an event's position report the largest unsigned 64-bit value. */
const FIRST_UNKNOWN_POSITION = 2n ** 63n;

export function toEventStoreDbExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    case 'any':
      return ANY;
    default:
      return expected;
  }
}

export function toEventData(event: EventToAppend): EventData {
  return jsonEvent({ id: event.id, type: event.type, data: event.data as JSONType, metadata: event.metadata });
}

export function toEventStoreDbPosition(position: bigint): Position {
  return { commit: position, prepare: position };
}

/** Whether `position` comes strictly after `after` in $all (everything does when `after` is undefined). */
export function isAfter(position: Position, after: Position | undefined): boolean {
  if (after === undefined) return true;
  return position.commit > after.commit || (position.commit === after.commit && position.prepare > after.prepare);
}

/** EventStoreDB's own bookkeeping ($-streams, $-types such as $metadata, projection links): never Chorus's. */
export function isSystemEvent(event: { streamId: string; type: string }): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

export function toRecordedEvent(event: EventStoreDbRecordedEvent): RecordedEvent {
  const position = event.position?.commit;
  if (position === undefined || position >= FIRST_UNKNOWN_POSITION) {
    throw new Error(
      `EventStoreDB returned no position for ${event.streamId}@${event.revision}: Chorus needs EventStoreDB 22.10 or newer`,
    );
  }
  return {
    id: event.id,
    streamId: event.streamId,
    type: event.type,
    data: event.isJson ? event.data : decodeJson(event.data as Uint8Array),
    metadata: toMetadata(event.metadata),
    recordedAt: event.created.toISOString(),
    revision: event.revision,
    position,
  };
}

/**
 * The server-side $all filter: one of stream prefixes or event types (the server takes one; the
 * subscription applies the whole filter again on the client), and without either, no system events.
 */
export function toServerFilter(filter: SubscriptionFilter | undefined): Filter {
  if (filter?.streamPrefixes !== undefined && filter.streamPrefixes.length > 0) {
    return streamNameFilter({ prefixes: [...filter.streamPrefixes] });
  }
  if (filter?.eventTypes !== undefined && filter.eventTypes.length > 0) {
    return eventTypeFilter({ regex: `^(?:${filter.eventTypes.map(escapeRegex).join('|')})$` });
  }
  return excludeSystemEvents();
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decodeJson(bytes: Uint8Array): unknown {
  const text = Buffer.from(bytes).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function toMetadata(metadata: unknown): EventMetadata {
  const value = metadata instanceof Uint8Array ? decodeJson(metadata) : metadata;
  // Events written by other tools may carry no metadata: the fields read as empty rather than crashing readers.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { actor: '', correlationId: '', causationId: '' };
  return value as EventMetadata;
}
