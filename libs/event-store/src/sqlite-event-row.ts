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
 * What both kinds of event read from the store share: `data` and `metadata` parsed when first read, yet
 * own enumerable properties, so spreading, cloning, JSON and equality see them as usual. A subclass
 * defines them where its keys' order wants them (events are serialized: the order is visible).
 */
abstract class LazyPayload {
  declare data: unknown;
  #dataText = '';
  #data: unknown = undefined;
  #dataParsed = false;
  #metadataText: string | undefined = undefined;
  #metadata: EventMetadata | undefined = undefined;

  // One descriptor each (one getter, one setter) for every event keeps them all of one hidden class.
  static readonly #lazyData: PropertyDescriptor = {
    get(this: LazyPayload): unknown {
      if (!this.#dataParsed) {
        this.#data = JSON.parse(this.#dataText) as unknown;
        this.#dataParsed = true;
      }
      return this.#data;
    },
    set(this: LazyPayload, data: unknown): void {
      this.#data = data;
      this.#dataParsed = true;
    },
    enumerable: true,
    configurable: true,
  };

  static readonly #lazyMetadata: PropertyDescriptor = {
    get(this: LazyPayload): EventMetadata | undefined {
      if (this.#metadata === undefined && this.#metadataText !== undefined) this.#metadata = JSON.parse(this.#metadataText) as EventMetadata;
      return this.#metadata;
    },
    set(this: LazyPayload, metadata: EventMetadata): void {
      this.#metadata = metadata;
    },
    enumerable: true,
    configurable: true,
  };

  /** Defines `data`, parsed from this text when first read. */
  protected holdData(dataText: string): void {
    this.#dataText = dataText;
    Object.defineProperty(this, 'data', LazyPayload.#lazyData);
  }

  /** Defines `metadata`, parsed from this text when first read (a read of the log may leave it out). */
  protected holdMetadata(metadataText: string): void {
    this.#metadataText = metadataText;
    Object.defineProperty(this, 'metadata', LazyPayload.#lazyMetadata);
  }
}

/**
 * A RecordedEvent whose data and metadata are parsed when first read: most readers of the log never
 * look at the metadata (parsing it was a sixth of reading the log), and the projections never look at
 * the data of the events they only count past (a sign-in's six events reach four projections, which
 * parsed them 24 times for the one SignedIn the sign-ins model keeps, and that one without its data).
 */
class StoredEvent extends LazyPayload implements RecordedEvent {
  id: string;
  streamId: string;
  type: string;
  declare metadata: EventMetadata;
  recordedAt: string;
  revision: bigint;
  position: bigint;

  constructor(row: EventRowAndMore) {
    super();
    this.id = row[3];
    this.streamId = row[1];
    this.type = row[4];
    this.holdData(row[5]);
    this.holdMetadata(row[6]);
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
  columns: string;
  toEvent: (row: LogRow) => LogEvent<EnvelopePart>;
};

/**
 * A read of the log whose rows come as one JSON text (`logTextOf`): each row a JSON array of LogRow's
 * values in its order, the integers as numbers and `data` (and `metadata`) as the JSON they are stored as.
 */
export type LogText = {
  /** The SQL expression of one row as its JSON array; the rows' arrays joined by commas make the text. */
  element: string;
  toEvent: (element: LogTextRow) => LogEvent<EnvelopePart>;
};

export type LogTextRow = [position: number, streamId: string, revision: number, type: string, data: unknown, ...envelope: unknown[]];

type EnvelopeFlags = { id: boolean; metadata: boolean; recordedAt: boolean };

/** The same for every read of the same envelope parts, whatever their order: a key for its prepared statements. */
export const envelopeKeyOf = (parts: readonly EnvelopePart[]): string => envelopeOf(parts).key;

function envelopeOf(parts: readonly EnvelopePart[]): { key: string; wanted: ReadonlyArray<(typeof envelopeParts)[number]>; flags: EnvelopeFlags } {
  const wanted = envelopeParts.filter(([part]) => parts.includes(part));
  const has = (part: EnvelopePart): boolean => wanted.some(([name]) => name === part);
  return { key: wanted.map(([part]) => part).join(','), wanted, flags: { id: has('id'), metadata: has('metadata'), recordedAt: has('recordedAt') } };
}

/**
 * The columns and the decoding of a read of the log with only the given envelope parts. `lazy`: `data`
 * (and `metadata`) parsed when first read, for readers that skip events (`readLog`); `parsed`: parsed as
 * read, for a reader that folds every event it asks for (`readLogByStream`, where laziness only adds cost).
 */
export function logReadOf(parts: readonly EnvelopePart[], decoding: 'lazy' | 'parsed' = 'lazy'): LogRead {
  const { wanted, flags } = envelopeOf(parts);
  return {
    columns: ['position, stream_id, revision, type, data', ...wanted.map(([, column]) => column)].join(', '),
    toEvent:
      decoding === 'lazy'
        ? (row) => new LoggedEvent(row, flags) as LogEvent<EnvelopePart>
        : (row) => withEnvelope(new ParsedLogEvent(row[1], row[3], row[2], row[0], JSON.parse(row[4]) as unknown), row, flags, true) as LogEvent<EnvelopePart>,
  };
}

/**
 * The same events as `logReadOf(parts, 'parsed')`, from rows written as JSON by SQLite: a page of them is
 * one string and one JSON.parse. better-sqlite3 (on Node 20) builds a raw row with a V8 API call per
 * column, six per event, a large share of reading the log by stream. Stream ids and types are quoted by SQLite; data and metadata are
 * JSON already. Positions and revisions pass as JSON numbers: one past 2^53 is refused, not rounded.
 */
export function logTextOf(parts: readonly EnvelopePart[]): LogText {
  const { wanted, flags } = envelopeOf(parts);
  // Metadata is JSON as stored; the other envelope parts are strings to quote.
  const values = ['position', 'json_quote(stream_id)', 'revision', 'json_quote(type)', 'data', ...wanted.map(([, column]) => (column === 'metadata' ? column : `json_quote(${column})`))];
  const formats = ['%d', '%s', '%d', '%s', '%s', ...wanted.map(() => '%s')];
  return {
    element: `printf('[${formats.join(',')}]', ${values.join(', ')})`,
    toEvent: (element) =>
      withEnvelope(
        new ParsedLogEvent(element[1], element[3], exactInteger(element[2]), exactInteger(element[0]), element[4]),
        element,
        flags,
        false,
      ) as LogEvent<EnvelopePart>,
  };
}

function exactInteger(value: number): bigint {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is past the integers a JSON number holds exactly`);
  return BigInt(value);
}

/**
 * A log row's event, its data (and metadata) parsed now: own enumerable values, as a plain object's.
 * Built by a constructor, not an object literal: V8 tracks the survival of an object literal's objects
 * and, when a young-generation GC finds nearly all of those made since the last one still alive (as it
 * does when it falls while a page of 1,000 events is being built), allocates all its later objects in
 * the old generation ("pretenuring"). Every later event then kept its data alive until a full GC: a
 * third of the organization rebuilds promoted far more and ran several full GCs. V8 does not track a constructor's objects.
 */
class ParsedLogEvent {
  streamId: string;
  type: string;
  revision: bigint;
  position: bigint;
  data: unknown;
  id?: string;
  metadata?: EventMetadata;
  recordedAt?: string;

  constructor(streamId: string, type: string, revision: bigint, position: bigint, data: unknown) {
    this.streamId = streamId;
    this.type = type;
    this.revision = revision;
    this.position = position;
    this.data = data;
  }
}

/** Sets the envelope parts asked for, from the values that follow the five, in envelopeParts order. */
function withEnvelope(event: ParsedLogEvent, row: readonly unknown[], parts: EnvelopeFlags, metadataIsText: boolean): ParsedLogEvent {
  let column = 5;
  if (parts.id) event.id = row[column++] as string;
  if (parts.metadata) {
    const metadata = row[column++];
    event.metadata = (metadataIsText ? JSON.parse(metadata as string) : metadata) as EventMetadata;
  }
  if (parts.recordedAt) event.recordedAt = row[column] as string;
  return event;
}

/**
 * An event of `readLog`: `data` (and `metadata`, when asked for) is parsed when first read, so an event
 * its reader skips costs no JSON.parse.
 */
class LoggedEvent extends LazyPayload {
  streamId: string;
  type: string;
  revision: bigint;
  position: bigint;
  id?: string;
  declare metadata?: EventMetadata;
  recordedAt?: string;

  constructor(row: LogRow, parts: EnvelopeFlags) {
    super();
    this.streamId = row[1];
    this.type = row[3];
    // The envelope's columns follow the five, those asked for only, in envelopeParts order.
    const envelope = row as unknown as readonly string[];
    let column = 5;
    this.holdData(row[4]);
    this.revision = row[2];
    this.position = row[0];
    if (parts.id) this.id = envelope[column++];
    if (parts.metadata) this.holdMetadata(envelope[column++] as string);
    if (parts.recordedAt) this.recordedAt = envelope[column];
  }
}
