// Revisions count from 0 per stream (as in EventStoreDB); positions are global, increasing.
import type { ChainedEvent } from './event-chain.js';

export type EventMetadata = {
  /** Who caused it: `user:<id>`, `api-key:<id>`, `billing`, `cli`, `system`. */
  actor: string;
  correlationId: string;
  causationId: string;
  /** Anything else auditors need (e.g. source IP, user agent, billing event id). */
  [key: string]: unknown;
};

export type EventToAppend = {
  /** uuid; appending an id already stored at the revision it would take is a no-op (idempotency). */
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
};

export type RecordedEvent = {
  id: string;
  streamId: string;
  type: string;
  data: unknown;
  /** An adapter may parse it when first read (the SQLite one does); it is an own, enumerable property all the same. */
  metadata: EventMetadata;
  recordedAt: string;
  revision: bigint;
  position: bigint;
};

export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | bigint;

export type AppendResult = { nextExpectedRevision: bigint; position: bigint };

/** One stream's part of a command's append to several streams (`appendToStreams`). */
export type StreamAppend = {
  streamId: string;
  events: readonly EventToAppend[];
  expectedRevision: ExpectedRevision;
};

export class WrongExpectedRevisionError extends Error {
  readonly code = 'CONCURRENCY_CONFLICT';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/**
 * Deleted behind Chorus's back: appends are refused, since readers have seen its history and it must never start again.
 */
export class StreamDeletedError extends Error {
  readonly code = 'STREAM_DELETED';
  constructor(readonly streamId: string) {
    super(`Stream ${streamId} was deleted in the event store; it cannot be appended to again`);
    this.name = 'StreamDeletedError';
  }
}

/** The largest append, in EventStoreDB's measure (see appendSize), that every adapter accepts: 1 MiB. */
export const MAX_APPEND_SIZE = 1_048_576;

/** A caller's bug, hence a RangeError; nothing of the append is written. */
export class AppendTooLargeError extends RangeError {
  readonly code = 'APPEND_TOO_LARGE';
  constructor(
    readonly streamId: string,
    /** Undefined from EventStoreDB, which does not say. */
    readonly size: number | undefined,
    readonly maxSize: number,
  ) {
    super(
      `Stream ${streamId}: the append${size === undefined ? '' : ` (${size} bytes)`} is over the event store's limit of ${maxSize} bytes`,
    );
    this.name = 'AppendTooLargeError';
  }
}

/** The call was cancelled; a read or ping can be retried as it is. */
export class EventStoreTimeoutError extends Error {
  readonly code = 'EVENT_STORE_TIMEOUT';
  constructor(
    readonly operation: string,
    /** Absent when the server, not the adapter, gave up. */
    readonly timeoutMs?: number,
  ) {
    super(
      `The event store did not answer ${operation} ${timeoutMs === undefined ? 'in time' : `within ${timeoutMs} ms`}`,
    );
    this.name = 'EventStoreTimeoutError';
  }
}

/** The checkpoint was made against another store (or a copy of this one that went further). */
export class InvalidPositionError extends Error {
  readonly code = 'INVALID_POSITION';
  constructor(
    readonly position: bigint,
    readonly detail: string,
  ) {
    super(`Position ${position} is not a position of this event store's log: ${detail}`);
    this.name = 'InvalidPositionError';
  }
}

export class EventStoreClosedError extends Error {
  readonly code = 'EVENT_STORE_CLOSED';
  constructor() {
    super('The event store is closed');
    this.name = 'EventStoreClosedError';
  }
}

export type ReadStreamOptions = {
  direction?: 'forwards' | 'backwards';
  /** Inclusive; default start (forwards) or end (backwards). */
  fromRevision?: bigint;
  maxCount?: number;
};

export type ReadStreamResult = { found: true; events: RecordedEvent[] } | { found: false };

export type ReadAllOptions = {
  /** Exclusive: events with position > fromPosition; default from the beginning. */
  fromPosition?: bigint;
  maxCount?: number;
};

/** What a reader of the log may leave out. */
export type EnvelopePart = 'id' | 'metadata' | 'recordedAt';

export type LogEvent<P extends EnvelopePart = never> = Pick<
  RecordedEvent,
  'streamId' | 'type' | 'revision' | 'position' | 'data' | P
>;

export type ReadLogOptions<P extends EnvelopePart> = ReadAllOptions & {
  /** The envelope parts the reader uses; the store may leave the others out. */
  parts: readonly P[];
};

export type ReadLogByStreamOptions<P extends EnvelopePart> = {
  /** Not empty. */
  streamPrefix: string;
  /** Inclusive. */
  toPosition: bigint;
  /** Exclusive: the last event of the previous page. */
  after?: { streamId: string; revision: bigint };
  maxCount: number;
  parts: readonly P[];
};

/** Absent or empty: no condition. */
export type SubscriptionFilter = { streamPrefixes?: readonly string[]; eventTypes?: readonly string[] };

export type SubscribeToAllOptions = {
  /** Exclusive; default from the beginning. */
  fromPosition?: bigint;
  filter?: SubscriptionFilter;
  /** Awaited before the next event is delivered. */
  onEvent: (event: RecordedEvent) => Promise<void> | void;
  onCaughtUp?: (position: bigint | undefined) => void;
  /** The subscription stopped for good. */
  onError?: (error: Error) => void;
};

export interface Subscription {
  /** Resolves when no handler is running. */
  close(): Promise<void>;
}

export interface EventStore {
  append(streamId: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /**
   * One command's events on several streams (each stream once), as one append: every part's expected revision holds or
   * nothing is written, and all become durable in one commit; positions increase in the order of the parts. Answers
   * each part's result in that order. EventStoreDB has no transaction across streams: its adapter appends the parts in
   * order, each atomic alone, and a failure after the first leaves the earlier parts written (README.md).
   */
  appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  /** Whether `appendToStreams` writes all parts or none (the embedded store, PostgreSQL), or part by part. */
  readonly appendsAcrossStreamsAtomically: boolean;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<ReadStreamResult>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /** `readAll` for a rebuild: the parts left out are not read, and `data` may be parsed only when first read. */
  readLog<P extends EnvelopePart = never>(options: ReadLogOptions<P>): Promise<LogEvent<P>[]>;
  /**
   * `readLog`'s events one stream after another (binary id order): a rebuild then folds a stream's events together,
   * so its states die young instead of living until the stream's next event far down the log.
   */
  readLogByStream?<P extends EnvelopePart = never>(options: ReadLogByStreamOptions<P>): Promise<LogEvent<P>[]>;
  /** Undefined for an empty store. */
  headPosition(): Promise<bigint | undefined>;
  /**
   * Durable commits made and appends they carried since this store was opened, where the store commits itself (the
   * embedded store and PostgreSQL group their appends' commits); EventStoreDB commits on its server.
   */
  commitStats?(): CommitStats;
  subscribeToAll(options: SubscribeToAllOptions): Subscription;
  /** Answers or rejects within a few seconds. */
  ping(): Promise<void>;
  /** The same for every reopen of the same log: a checkpoint means nothing against another store. */
  storeId(): Promise<string>;
  close(): Promise<void>;
}

export type CommitStats = { commits: number; writes: number };

/** An event as its store holds it, its data and metadata the JSON texts stored: what backups and copies carry. */
export type StoredEvent = {
  position: bigint;
  streamId: string;
  revision: bigint;
  id: string;
  type: string;
  data: string;
  metadata: string;
  recordedAt: string;
  /**
   * Its hash in the chain, as its source stored it (null: not chained there), when read with it: an import keeps it,
   * so that a copy of a changed log fails `store:verify` where its source does instead of being chained again over the
   * change.
   */
  hash?: Buffer | null;
};

/** Events in log order, in batches as a copy reads them from its source. */
export type EventBatches = AsyncIterable<readonly StoredEvent[]> | Iterable<readonly StoredEvent[]>;

/**
 * Events as rows of PostgreSQL COPY's text format, a line each: position, stream_id, revision, event_id, type, data,
 * metadata, recorded_at and hash (bytea's hex), a tab between them, the backslash, tab, newline and carriage return
 * escaped. The embedded store writes them out in SQL, so a copy into PostgreSQL handles no event in JavaScript.
 */
export type EventRows = {
  text: Buffer;
  count: number;
  firstPosition: bigint;
  lastPosition: bigint;
  /** Its last event's hash: every event given as rows is chained. */
  lastHash: Buffer;
};

/**
 * The log event for event as stored, for backups, restores and copies between stores (the embedded store and
 * PostgreSQL; EventStoreDB gives every event its own position and time).
 */
export interface ExactLog {
  /** Events with a position after `afterPosition`, in position order, exactly as stored. */
  exportEvents(afterPosition: bigint, maxCount: number): Promise<StoredEvent[]>;
  /**
   * Writes events at the positions, revisions, ids and times they carry, batch after batch, each batch all or none:
   * each event after the log's head and the next revision of its stream. A RangeError otherwise, the batches before
   * the refused one written. An event with its hash keeps it; one without is chained on from the event before. A store
   * on a server of its own takes a batch while the next is read.
   */
  importEvents(batches: EventBatches, onImported?: (events: number) => void): Promise<void>;
  /**
   * Where the store writes them out cheaply (the embedded store): up to `maxCount` events after `afterPosition`, none
   * after `upToPosition`, as rows. Undefined when there are none, or when one of them is not chained yet: those are read
   * as events (`exportEvents`).
   */
  exportRows?(
    afterPosition: bigint,
    upToPosition: bigint | undefined,
    maxCount: number,
  ): Promise<EventRows | undefined>;
  /**
   * Where the store takes them as they are (PostgreSQL): rows from a store whose own appends checked each event's
   * position and revision, in batches that each land whole, each after the log's head. The log's keys refuse a
   * position, a stream's revision or an event id it holds already; the checks `importEvents` makes on each event are
   * not made again.
   */
  importRows?(batches: AsyncIterable<readonly EventRows[]>, onImported?: (events: number) => void): Promise<void>;
  /** Streams an operator deleted behind Chorus's back, and marks them deleted here: a copy keeps them so. */
  deletedStreams(): Promise<string[]>;
  markDeleted(streamIds: readonly string[]): Promise<void>;
  /** How many events the log holds. */
  countEvents(): Promise<number>;
}

/**
 * The log's chain (event-chain.ts): every event's hash, given at append under the lock that orders positions. The
 * embedded store and PostgreSQL keep one; EventStoreDB, which gives positions on its server, does not (docs/history.md).
 */
export interface ChainedLog {
  /** Events after `afterPosition` in position order, exactly as stored, with their hashes (null: not chained). */
  readChain(afterPosition: bigint, maxCount: number): Promise<ChainedEvent[]>;
  /**
   * Gives the events after `afterPosition` (up to `maxCount`) that have no hash theirs, in log order, in one
   * transaction under the write lock, each linked to the one before. `lastPosition`: the last event looked at
   * (undefined: none after `afterPosition`).
   */
  chainNext(afterPosition: bigint, maxCount: number): Promise<{ chained: number; lastPosition: bigint | undefined }>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');
/** The configured store's chain (ChainedLog), or null where it keeps none. */
export const CHAINED_LOG = Symbol('CHAINED_LOG');
