import {
  AppendTooLargeError,
  MAX_APPEND_SIZE,
  type EventToAppend,
  type ExpectedRevision,
  type StreamAppend,
} from './event-store.port.js';

/** Every adapter refuses the same appends the same way: a RangeError, a caller's bug. */
export function assertValidAppend(
  streamId: string,
  events: readonly EventToAppend[],
  expectedRevision: ExpectedRevision,
): void {
  if (streamId.length === 0) throw new RangeError('An append needs a stream id');
  // EventStoreDB reserves '$' for its own streams and event types.
  if (streamId.startsWith('$')) throw new RangeError(`Stream ${streamId}: ids starting with '$' are reserved`);
  if (typeof expectedRevision === 'bigint' && expectedRevision < 0n) {
    throw new RangeError(`Stream ${streamId}: expected revision ${expectedRevision} is negative`);
  }
  if (events.length === 0) throw new RangeError(`Stream ${streamId}: an append needs at least one event`);
  const ids = events.length > 1 ? new Set<string>() : undefined;
  for (const event of events) {
    // EventStoreDB hands ids back in lower case.
    if (!isCanonicalUuid(event.id))
      throw new RangeError(`Stream ${streamId}: event id ${event.id} is not a lower-case uuid`);
    if (ids !== undefined) {
      if (ids.has(event.id))
        throw new RangeError(`Stream ${streamId}: event id ${event.id} appears twice in one append`);
      ids.add(event.id);
    }
    if (event.type.length === 0 || event.type.startsWith('$')) {
      throw new RangeError(`Stream ${streamId}: event type '${event.type}' is empty or reserved`);
    }
  }
}

/** An append to several streams: at least one part, each stream once, each part valid alone. */
export function assertValidAppends(appends: readonly StreamAppend[]): void {
  if (appends.length === 0) throw new RangeError('An append to streams needs at least one stream');
  const streams = new Set<string>();
  for (const { streamId, events, expectedRevision } of appends) {
    if (streams.has(streamId)) throw new RangeError(`Stream ${streamId}: appears twice in one append to streams`);
    streams.add(streamId);
    assertValidAppend(streamId, events, expectedRevision);
  }
}

/**
 * A loop, not a RegExp: randomUUID()'s strings are concatenated in pieces, which a RegExp test flattens on V8's slow
 * path.
 */
export function isCanonicalUuid(id: string): boolean {
  if (id.length !== 36) return false;
  for (let index = 0; index < 36; index += 1) {
    const code = id.charCodeAt(index);
    if (index === 8 || index === 13 || index === 18 || index === 23) {
      if (code !== DASH) return false;
    } else if (!((code >= DIGIT_0 && code <= DIGIT_9) || (code >= LOWER_A && code <= LOWER_F))) {
      return false;
    }
  }
  return true;
}

const DASH = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_A = 0x61;
const LOWER_F = 0x66;

function toJsonText(value: unknown, streamId: string, eventId: string, part: 'data' | 'metadata'): string {
  const text = JSON.stringify(value);
  if (text === undefined)
    throw new RangeError(`Stream ${streamId}: ${part} of event ${eventId} is not representable as JSON`);
  return text;
}

export function assertValidMaxCount(maxCount: number | undefined): void {
  if (maxCount !== undefined && (!Number.isSafeInteger(maxCount) || maxCount < 1)) {
    throw new RangeError(`maxCount must be a whole number of at least 1, got ${maxCount}`);
  }
}

export type SerializedEvent = { id: string; type: string; data: string; metadata: string };

export function serializeEvents(streamId: string, events: readonly EventToAppend[]): SerializedEvent[] {
  return events.map((event) => ({
    id: event.id,
    type: event.type,
    data: toJsonText(event.data, streamId, event.id, 'data'),
    metadata: toJsonText(event.metadata, streamId, event.id, 'metadata'),
  }));
}

/** As EventStoreDB measures it against MaxAppendSize (`Event.SizeOnDisk` in its source). */
export function appendSize(events: readonly SerializedEvent[]): number {
  let size = 0;
  for (const event of events)
    size += Buffer.byteLength(event.data) + Buffer.byteLength(event.metadata) + event.type.length * 2;
  return size;
}

export function assertAppendSize(streamId: string, events: readonly SerializedEvent[]): void {
  // A UTF-16 code unit is at most 3 bytes of UTF-8: an append under the limit by that bound needs no exact count.
  let bound = 0;
  for (const event of events) bound += (event.data.length + event.metadata.length) * 3 + event.type.length * 2;
  if (bound <= MAX_APPEND_SIZE) return;
  const size = appendSize(events);
  // EventStoreDB refuses sizes strictly greater than its limit.
  if (size > MAX_APPEND_SIZE) throw new AppendTooLargeError(streamId, size, MAX_APPEND_SIZE);
}
