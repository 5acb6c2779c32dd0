import type { EventMetadata, RecordedEvent } from './event-store.port.js';

/** One row of the `events` table, integers read as bigint. */
export type EventRow = {
  position: bigint;
  stream_id: string;
  revision: bigint;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: string;
};

export const EVENT_ROW_COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata, recorded_at';

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    id: row.event_id,
    streamId: row.stream_id,
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    recordedAt: row.recorded_at,
    revision: row.revision,
    position: row.position,
  };
}
