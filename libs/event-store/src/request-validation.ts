import { AppendTooLargeError, MAX_APPEND_SIZE, type EventToAppend, type ExpectedRevision } from './event-store.port.js';

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Refuses, before anything is written, an append that no adapter could store faithfully.
 * Both adapters call it so they refuse the same things the same way (a RangeError: a caller's bug).
 */
export function assertValidAppend(streamId: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): void {
  if (streamId.length === 0) throw new RangeError('An append needs a stream id');
  // EventStoreDB reserves '$' for its own streams and event types.
  if (streamId.startsWith('$')) throw new RangeError(`Stream ${streamId}: ids starting with '$' are reserved`);
  if (typeof expectedRevision === 'bigint' && expectedRevision < 0n) {
    throw new RangeError(`Stream ${streamId}: expected revision ${expectedRevision} is negative`);
  }
  if (events.length === 0) throw new RangeError(`Stream ${streamId}: an append needs at least one event`);
  const ids = new Set<string>();
  for (const event of events) {
    // Lower-case canonical form, because EventStoreDB hands ids back that way.
    if (!CANONICAL_UUID.test(event.id)) throw new RangeError(`Stream ${streamId}: event id ${event.id} is not a lower-case uuid`);
    if (ids.has(event.id)) throw new RangeError(`Stream ${streamId}: event id ${event.id} appears twice in one append`);
    ids.add(event.id);
    if (event.type.length === 0 || event.type.startsWith('$')) {
      throw new RangeError(`Stream ${streamId}: event type '${event.type}' is empty or reserved`);
    }
  }
}

/** JSON text of an event's data or metadata; a value JSON cannot represent is refused. */
export function toJsonText(value: unknown, what: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new RangeError(`${what} is not representable as JSON`);
  return text;
}

/** maxCount, when given, is a whole number of events, at least 1. */
export function assertValidMaxCount(maxCount: number | undefined): void {
  if (maxCount !== undefined && (!Number.isSafeInteger(maxCount) || maxCount < 1)) {
    throw new RangeError(`maxCount must be a whole number of at least 1, got ${maxCount}`);
  }
}

/** An event as both adapters send it: its data and metadata as JSON text. */
export type SerializedEvent = { id: string; type: string; data: string; metadata: string };

/** JSON text of every event's data and metadata; a value JSON cannot represent is refused. */
export function serializeEvents(streamId: string, events: readonly EventToAppend[]): SerializedEvent[] {
  return events.map((event) => ({
    id: event.id,
    type: event.type,
    data: toJsonText(event.data, `Stream ${streamId}: data of event ${event.id}`),
    metadata: toJsonText(event.metadata, `Stream ${streamId}: metadata of event ${event.id}`),
  }));
}

/**
 * An append's size as EventStoreDB measures it against its MaxAppendSize: per event, the UTF-8 bytes of
 * data and metadata plus two bytes per UTF-16 code unit of the type (`Event.SizeOnDisk` in its source).
 */
export function appendSize(events: readonly SerializedEvent[]): number {
  let size = 0;
  for (const event of events) size += Buffer.byteLength(event.data) + Buffer.byteLength(event.metadata) + event.type.length * 2;
  return size;
}

/** Refuses an append over MAX_APPEND_SIZE (EventStoreDB's default), the same on every adapter. */
export function assertAppendSize(streamId: string, events: readonly SerializedEvent[]): void {
  const size = appendSize(events);
  // EventStoreDB refuses sizes strictly greater than its limit.
  if (size > MAX_APPEND_SIZE) throw new AppendTooLargeError(streamId, size, MAX_APPEND_SIZE);
}
