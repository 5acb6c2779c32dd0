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
import type {
  EventMetadata,
  EventToAppend,
  ExpectedRevision,
  RecordedEvent,
  SubscriptionFilter,
} from './event-store.port.js';
import { copiedFromOf } from './copied-from.js';
import { splitStreamHash } from './stream-chain.js';

// A gRPC append gives each event equal commit and prepare positions: the commit position alone orders $all.

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

export function isAfter(position: Position, after: Position | undefined): boolean {
  if (after === undefined) return true;
  return position.commit > after.commit || (position.commit === after.commit && position.prepare > after.prepare);
}

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
  // The stream's chain hash is the store's, not the event's: only store:verify reads it (rawStreamHash).
  const metadata = splitStreamHash(toMetadata(event.metadata)).metadata as EventMetadata;
  return {
    id: event.id,
    streamId: event.streamId,
    type: event.type,
    data: event.isJson ? event.data : decodeJson(event.data as Uint8Array),
    metadata,
    // A copied event keeps the time its source recorded it at (copied-from.ts).
    recordedAt: copiedFromOf(metadata)?.recordedAt ?? event.created.toISOString(),
    revision: event.revision,
    position,
  };
}

/** The server takes prefixes or types, not both: the subscription applies the whole filter again on the client. */
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
  // Events written by other tools may carry no metadata.
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { actor: '', correlationId: '', causationId: '' };
  return value as EventMetadata;
}

/** The chain hash an event's metadata carries as stored (stream-chain.ts); undefined when it has none. */
export function rawStreamHash(event: EventStoreDbRecordedEvent): string | undefined {
  return splitStreamHash(toMetadata(event.metadata)).hash;
}
