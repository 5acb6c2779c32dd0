import type {
  EnvelopePart,
  EventMetadata,
  LogEvent,
  RecordedEvent,
  StoredEvent as ExactEvent,
} from './event-store.port.js';

/** A raw row (EVENT_ROW_COLUMNS): about a third cheaper to read than an object per row. */
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

export type EventRowAndMore = readonly [...EventRow, ...unknown[]];

/** The event exactly as stored (backups, copies, the chain): its text as it is, unparsed. */
export function toStoredEvent([
  position,
  streamId,
  revision,
  id,
  type,
  data,
  metadata,
  recordedAt,
]: EventRowAndMore): ExactEvent {
  return { position, streamId, revision, id, type, data, metadata, recordedAt };
}

export function toRecordedEvent(row: EventRowAndMore): RecordedEvent {
  return new StoredEvent(row);
}

/**
 * `data` and `metadata` parsed when first read, yet own enumerable properties, so spreading, JSON and equality
 * see them as usual. A subclass defines them where its keys' order wants them: events are serialized.
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
      if (this.#metadata === undefined && this.#metadataText !== undefined)
        this.#metadata = JSON.parse(this.#metadataText) as EventMetadata;
      return this.#metadata;
    },
    set(this: LazyPayload, metadata: EventMetadata): void {
      this.#metadata = metadata;
    },
    enumerable: true,
    configurable: true,
  };

  protected holdData(dataText: string): void {
    this.#dataText = dataText;
    Object.defineProperty(this, 'data', LazyPayload.#lazyData);
  }

  protected holdMetadata(metadataText: string): void {
    this.#metadataText = metadataText;
    Object.defineProperty(this, 'metadata', LazyPayload.#lazyMetadata);
  }
}

/** Lazy: parsing metadata was a sixth of reading the log, and projections skip the data of most events they see. */
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

/** In the order their columns follow the five a log row always has. */
const envelopeParts = [
  ['id', 'event_id'],
  ['metadata', 'metadata'],
  ['recordedAt', 'recorded_at'],
] as const satisfies ReadonlyArray<readonly [EnvelopePart, string]>;

/** The envelope columns asked for follow, in `envelopeParts` order. */
export type LogRow = [
  position: bigint,
  streamId: string,
  revision: bigint,
  type: string,
  data: string,
  ...envelope: string[],
];

export type LogRead = {
  columns: string;
  toEvent: (row: LogRow) => LogEvent<EnvelopePart>;
};

/** A read of the log whose rows come as one JSON text (`logTextOf`). */
export type LogText = {
  /** The SQL expression of one row as a JSON array of LogRow's values. */
  element: string;
  toEvent: (element: LogTextRow) => LogEvent<EnvelopePart>;
};

export type LogTextRow = [
  position: number,
  streamId: string,
  revision: number,
  type: string,
  data: unknown,
  ...envelope: unknown[],
];

type EnvelopeFlags = { id: boolean; metadata: boolean; recordedAt: boolean };

/** Independent of the parts' order: a key for prepared statements. */
export const envelopeKeyOf = (parts: readonly EnvelopePart[]): string => envelopeOf(parts).key;

function envelopeOf(parts: readonly EnvelopePart[]): {
  key: string;
  wanted: ReadonlyArray<(typeof envelopeParts)[number]>;
  flags: EnvelopeFlags;
} {
  const wanted = envelopeParts.filter(([part]) => parts.includes(part));
  const has = (part: EnvelopePart): boolean => wanted.some(([name]) => name === part);
  return {
    key: wanted.map(([part]) => part).join(','),
    wanted,
    flags: { id: has('id'), metadata: has('metadata'), recordedAt: has('recordedAt') },
  };
}

/**
 * `lazy` for readers that skip events (`readLog`); `parsed` for one that folds them all, where laziness only adds cost.
 */
export function logReadOf(parts: readonly EnvelopePart[], decoding: 'lazy' | 'parsed' = 'lazy'): LogRead {
  const { wanted, flags } = envelopeOf(parts);
  return {
    columns: ['position, stream_id, revision, type, data', ...wanted.map(([, column]) => column)].join(', '),
    toEvent:
      decoding === 'lazy'
        ? (row) => new LoggedEvent(row, flags) as LogEvent<EnvelopePart>
        : (row) =>
            withEnvelope(
              new ParsedLogEvent(row[1], row[3], row[2], row[0], JSON.parse(row[4]) as unknown),
              row,
              flags,
              true,
            ) as LogEvent<EnvelopePart>,
  };
}

/**
 * A page as one JSON string: better-sqlite3 makes a V8 API call per column of a raw row, a large share of
 * reading the log by stream. Integers pass as JSON numbers: one past 2^53 is refused, not rounded.
 */
export function logTextOf(parts: readonly EnvelopePart[]): LogText {
  const { wanted, flags } = envelopeOf(parts);
  const values = [
    'position',
    'json_quote(stream_id)',
    'revision',
    'json_quote(type)',
    'data',
    ...wanted.map(([, column]) => (column === 'metadata' ? column : `json_quote(${column})`)),
  ];
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
 * A class, not an object literal: V8 pretenures a literal's objects once a GC finds them mostly alive (as mid-page),
 * and a third of the organization rebuilds then ran several full GCs. It does not track a constructor's objects.
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

function withEnvelope(
  event: ParsedLogEvent,
  row: readonly unknown[],
  parts: EnvelopeFlags,
  metadataIsText: boolean,
): ParsedLogEvent {
  let column = 5;
  if (parts.id) event.id = row[column++] as string;
  if (parts.metadata) {
    const metadata = row[column++];
    event.metadata = (metadataIsText ? JSON.parse(metadata as string) : metadata) as EventMetadata;
  }
  if (parts.recordedAt) event.recordedAt = row[column] as string;
  return event;
}

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
