// One stored row of PostgreSQL's events table as the adapter and the rewrite read it, and the two events it maps to.
import type { ChainedEvent } from './event-chain.js';
import type { RecordedEvent, StoredEvent } from './event-store.port.js';

/** `position::text` is named position: an ORDER BY must say events.position, or it sorts the text ('10' before '9'). */
export const EVENT_ROW_COLUMNS = `position::text, stream_id, revision::text, event_id, type, data, metadata, recorded_at`;

export type EventRow = {
  position: string;
  stream_id: string;
  revision: string;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: Date;
};

export type ChainedEventRow = EventRow & { hash: Buffer | null };

/** A page of the log after position $1, at most $2 events, each with its hash (null: written before the chain). */
export const CHAINED_PAGE = `SELECT ${EVENT_ROW_COLUMNS}, hash FROM events WHERE position > $1 ORDER BY events.position LIMIT $2`;

/** The event exactly as stored: data and metadata as their text, the time as ISO-8601 UTC with milliseconds. */
export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    position: BigInt(row.position),
    streamId: row.stream_id,
    revision: BigInt(row.revision),
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at.toISOString(),
  };
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
    recordedAt: row.recorded_at.toISOString(),
    revision: BigInt(row.revision),
    position: BigInt(row.position),
  };
}

/** The event as stored and its hash, in one object: store:verify maps every row of the log. */
export function toChainedEvent(row: ChainedEventRow): ChainedEvent {
  const event = toStoredEvent(row) as ChainedEvent;
  event.hash = row.hash;
  return event;
}
