// One recorded event as auditors see it: exactly what the store holds, with its place and time.
import type { EventMetadata, RecordedEvent } from '#event-store';
import { jsonSafe } from '../http/json-safe.js';

export type HistoryEvent = {
  id: string;
  streamId: string;
  type: string;
  data: unknown;
  /** actor, correlationId, causationId and whatever else the command recorded (origin, billing ids). */
  metadata: EventMetadata;
  revision: number | string;
  position: number | string;
  recordedAt: string;
};

export function historyEvent(event: RecordedEvent): HistoryEvent {
  return {
    id: event.id,
    streamId: event.streamId,
    type: event.type,
    data: event.data,
    metadata: event.metadata,
    revision: jsonSafe(event.revision),
    position: jsonSafe(event.position),
    recordedAt: event.recordedAt,
  };
}
