import type { EnvelopePart, EventMetadata, LogEvent, RecordedEvent } from './event-store.port.js';

/**
 * One row of the `events` table as a raw statement returns it (an array, integers as bigint): about a
 * third cheaper to read than an object per row. The columns are EVENT_ROW_COLUMNS, in that order.
 */
export type EventRow = [
  position: bigint,
  streamId: string,
  revision: bigint,
  eventId: string,
  type: string,
  data: string,
  metadata: string,
  recordedAt: string,
];

export const EVENT_ROW_COLUMNS = 'position, stream_id, revision, event_id, type, data, metadata, recorded_at';

export const rowPosition = (row: EventRow): bigint => row[0];
export const rowStreamId = (row: EventRow): string => row[1];
export const rowType = (row: EventRow): string => row[4];

/** A row that starts with EventRow's columns (a stream read adds the stream's deleted mark after them). */
export type EventRowAndMore = readonly [...EventRow, ...unknown[]];

export function toRecordedEvent(row: EventRowAndMore): RecordedEvent {
  return new StoredEvent(row);
}

/**
 * A RecordedEvent whose data and metadata are parsed when first read: most readers of the log never
 * look at the metadata (parsing it was a sixth of reading the log), and the projections never look at
 * the data of the events they only count past (a sign-in's six events reach four projections, which
 * parsed them 24 times for the one SignedIn the sign-ins model keeps, and that one without its data).
 * Both are own enumerable properties, so spreading, cloning, JSON and equality see them as usual.
 */
class StoredEvent implements RecordedEvent {
  id: string;
  streamId: string;
  type: string;
  declare data: unknown;
  declare metadata: EventMetadata;
  recordedAt: string;
  revision: bigint;
  position: bigint;
  #dataText: string;
  #data: unknown;
  #dataParsed: boolean;
  #metadataText: string;
  #metadata: EventMetadata | undefined;

  // One descriptor each (one getter, one setter) for every event keeps them all of one hidden class.
  static readonly #lazyData: PropertyDescriptor = {
    get(this: StoredEvent): unknown {
      if (!this.#dataParsed) {
        this.#data = JSON.parse(this.#dataText) as unknown;
        this.#dataParsed = true;
      }
      return this.#data;
    },
    set(this: StoredEvent, data: unknown): void {
      this.#data = data;
      this.#dataParsed = true;
    },
    enumerable: true,
    configurable: true,
  };

  static readonly #lazyMetadata: PropertyDescriptor = {
    get(this: StoredEvent): EventMetadata {
      this.#metadata ??= JSON.parse(this.#metadataText) as EventMetadata;
      return this.#metadata;
    },
    set(this: StoredEvent, metadata: EventMetadata): void {
      this.#metadata = metadata;
    },
    enumerable: true,
    configurable: true,
  };

  static readonly #lazyProperties: PropertyDescriptorMap = { data: StoredEvent.#lazyData, metadata: StoredEvent.#lazyMetadata };

  constructor(row: EventRowAndMore) {
    this.id = row[3];
    this.streamId = row[1];
    this.type = row[4];
    this.#dataText = row[5];
    this.#data = undefined;
    this.#dataParsed = false;
    this.#metadataText = row[6];
    this.#metadata = undefined;
    Object.defineProperties(this, StoredEvent.#lazyProperties);
    this.recordedAt = row[7];
    this.revision = row[2];
    this.position = row[0];
  }
}

/** The envelope parts in the order their columns follow the five a log row always has. */
const envelopeParts = [
  ['id', 'event_id'],
  ['metadata', 'metadata'],
  ['recordedAt', 'recorded_at'],
] as const satisfies ReadonlyArray<readonly [EnvelopePart, string]>;

/**
 * One row of a read of the log for `readLog`: position, stream id, revision, type and data, then the
 * columns of the envelope parts asked for (`logReadOf`), in `envelopeParts` order.
 */
export type LogRow = [position: bigint, streamId: string, revision: bigint, type: string, data: string, ...envelope: string[]];

export type LogRead = {
  /** The same for every request of the same parts, whatever their order: a key for a prepared statement. */
  key: string;
  columns: string;
  toEvent: (row: LogRow) => LogEvent<EnvelopePart>;
};

/** The columns and the decoding of a read of the log with only the given envelope parts. */
export function logReadOf(parts: readonly EnvelopePart[]): LogRead {
  const wanted = envelopeParts.filter(([part]) => parts.includes(part));
  const has = (part: EnvelopePart): boolean => wanted.some(([name]) => name === part);
  const flags = { id: has('id'), metadata: has('metadata'), recordedAt: has('recordedAt') };
  return {
    key: wanted.map(([part]) => part).join(','),
    columns: ['position, stream_id, revision, type, data', ...wanted.map(([, column]) => column)].join(', '),
    toEvent: (row) => new LoggedEvent(row, flags) as LogEvent<EnvelopePart>,
  };
}

/**
 * An event of `readLog`: `data` (and `metadata`, when asked for) is parsed when first read, so an event
 * its reader skips costs no JSON.parse. Both are own, enumerable properties, as in StoredEvent.
 */
class LoggedEvent {
  streamId: string;
  type: string;
  declare data: unknown;
  revision: bigint;
  position: bigint;
  id?: string;
  declare metadata?: EventMetadata;
  recordedAt?: string;
  #dataText: string;
  #data: unknown;
  #parsed: boolean;
  #metadataText: string | undefined;
  #metadata: EventMetadata | undefined;

  static readonly #lazyData: PropertyDescriptor = {
    get(this: LoggedEvent): unknown {
      if (!this.#parsed) {
        this.#data = JSON.parse(this.#dataText) as unknown;
        this.#parsed = true;
      }
      return this.#data;
    },
    set(this: LoggedEvent, data: unknown): void {
      this.#data = data;
      this.#parsed = true;
    },
    enumerable: true,
    configurable: true,
  };

  static readonly #lazyMetadata: PropertyDescriptor = {
    get(this: LoggedEvent): EventMetadata | undefined {
      if (this.#metadata === undefined && this.#metadataText !== undefined) this.#metadata = JSON.parse(this.#metadataText) as EventMetadata;
      return this.#metadata;
    },
    set(this: LoggedEvent, metadata: EventMetadata): void {
      this.#metadata = metadata;
    },
    enumerable: true,
    configurable: true,
  };

  constructor(row: LogRow, parts: { id: boolean; metadata: boolean; recordedAt: boolean }) {
    this.streamId = row[1];
    this.type = row[3];
    this.#dataText = row[4];
    this.#data = undefined;
    this.#parsed = false;
    Object.defineProperty(this, 'data', LoggedEvent.#lazyData);
    this.revision = row[2];
    this.position = row[0];
    // The envelope's columns follow the five, those asked for only, in envelopeParts order.
    const envelope = row as unknown as readonly string[];
    let column = 5;
    if (parts.id) this.id = envelope[column++];
    this.#metadataText = parts.metadata ? envelope[column++] : undefined;
    this.#metadata = undefined;
    if (parts.metadata) Object.defineProperty(this, 'metadata', LoggedEvent.#lazyMetadata);
    if (parts.recordedAt) this.recordedAt = envelope[column];
  }
}
