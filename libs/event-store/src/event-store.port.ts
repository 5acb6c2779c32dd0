// CONTRACT (the port; adapters implement it, the contract suite checks them).
// Revisions count from 0 per stream (as in EventStoreDB); positions are global, increasing.

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
  /** ISO-8601 instant the store recorded it. */
  recordedAt: string;
  revision: bigint;
  position: bigint;
};

/** 'no_stream' | 'stream_exists' | 'any' | the exact current revision of the stream. */
export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | bigint;

export type AppendResult = { nextExpectedRevision: bigint; position: bigint };

export class WrongExpectedRevisionError extends Error {
  readonly code = 'CONCURRENCY_CONFLICT';
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    /** The stream's current revision, or 'no_stream'. */
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/**
 * The stream was deleted in the store behind Chorus's back (Chorus never deletes one): an append to it is
 * refused and writes nothing, whatever its expected revision, because every reader has already seen the
 * stream's history and a stream must never start again under the same name.
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

/** An append larger than the store accepts; nothing of it is written (a caller's bug, hence a RangeError). */
export class AppendTooLargeError extends RangeError {
  readonly code = 'APPEND_TOO_LARGE';
  constructor(
    readonly streamId: string,
    /** The append's size, when the adapter measured it (EventStoreDB itself does not say). */
    readonly size: number | undefined,
    readonly maxSize: number,
  ) {
    super(`Stream ${streamId}: the append${size === undefined ? '' : ` (${size} bytes)`} is over the event store's limit of ${maxSize} bytes`);
    this.name = 'AppendTooLargeError';
  }
}

/** The store did not answer in time; the call was cancelled. A read or ping can be retried as it is. */
export class EventStoreTimeoutError extends Error {
  readonly code = 'EVENT_STORE_TIMEOUT';
  constructor(
    readonly operation: string,
    /** The adapter's own bound, when it was the adapter that gave up (else the server's). */
    readonly timeoutMs?: number,
  ) {
    super(`The event store did not answer ${operation} ${timeoutMs === undefined ? 'in time' : `within ${timeoutMs} ms`}`);
    this.name = 'EventStoreTimeoutError';
  }
}

/**
 * A subscription's start position is not a position of this store's log: past its end, or not where an
 * event is. The checkpoint was made against another store (or a copy of this one that went further).
 */
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

/** The store was closed: appends and reads after close(), and subscriptions it closed under them. */
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

/** The parts of an event's envelope a reader of the log may leave out (see `EventStore.readLog`). */
export type EnvelopePart = 'id' | 'metadata' | 'recordedAt';

/**
 * A recorded event with only the envelope parts `P` besides its stream, type, revision, position and
 * data. `RecordedEvent` is the one with every part, so it is a `LogEvent` of any parts.
 */
export type LogEvent<P extends EnvelopePart = never> = Pick<RecordedEvent, 'streamId' | 'type' | 'revision' | 'position' | 'data' | P>;

export type ReadLogOptions<P extends EnvelopePart> = ReadAllOptions & {
  /** The envelope parts the reader uses; the store may leave the others out. */
  parts: readonly P[];
};

export type ReadLogByStreamOptions<P extends EnvelopePart> = {
  /** The streams whose id starts with this (not empty). */
  streamPrefix: string;
  /** Inclusive: events at later positions are left out, as they are of a read of the log up to here. */
  toPosition: bigint;
  /** Exclusive: the page starts after this event (the last one of the previous page); undefined: at the first stream. */
  after?: { streamId: string; revision: bigint };
  maxCount: number;
  /** The envelope parts the reader uses; the store may leave the others out. */
  parts: readonly P[];
};

/** An event passes when its stream starts with one of the prefixes and its type is one of the types (absent or empty: no condition). */
export type SubscriptionFilter = { streamPrefixes?: readonly string[]; eventTypes?: readonly string[] };

export type SubscribeToAllOptions = {
  /** Exclusive; default from the beginning. */
  fromPosition?: bigint;
  filter?: SubscriptionFilter;
  /** Awaited before the next event is delivered. */
  onEvent: (event: RecordedEvent) => Promise<void> | void;
  /** Called once each time the subscription has delivered everything stored and is live. */
  onCaughtUp?: (position: bigint | undefined) => void;
  /** The subscription stopped for good (handler threw, the store closed under it, InvalidPositionError). */
  onError?: (error: Error) => void;
};

export interface Subscription {
  /** Stops delivery and releases everything; resolves when no handler is running. */
  close(): Promise<void>;
}

export interface EventStore {
  append(streamId: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  readStream(streamId: string, options?: ReadStreamOptions): Promise<ReadStreamResult>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  /**
   * The same events as `readAll`, with only the envelope parts asked for (a store may give more), for a
   * reader of the whole log such as a rebuild: the embedded store neither reads the other columns nor
   * parses `data` before it is first read (an event the reader skips costs no JSON.parse).
   */
  readLog<P extends EnvelopePart = never>(options: ReadLogOptions<P>): Promise<LogEvent<P>[]>;
  /**
   * Optional. The events `readLog` would give up to `toPosition` of the streams starting with a prefix,
   * one stream after another (by stream id, in binary order) and each stream's in revision order: a
   * rebuild of a model whose rows each depend on one stream folds a stream's events together, so its
   * states die young instead of living until their stream's next event far down the log. A store without
   * it is read in position order.
   */
  readLogByStream?<P extends EnvelopePart = never>(options: ReadLogByStreamOptions<P>): Promise<LogEvent<P>[]>;
  /** Position of the last stored event, or undefined for an empty store (for lag in /health). */
  headPosition(): Promise<bigint | undefined>;
  subscribeToAll(options: SubscribeToAllOptions): Subscription;
  /** Cheap reachability check for /health; answers or rejects within a few seconds. */
  ping(): Promise<void>;
  /**
   * This store's identity: the same for every process and every reopen of the same log, different for
   * any other store. Read models record it with their checkpoints (a checkpoint means nothing elsewhere).
   */
  storeId(): Promise<string>;
  close(): Promise<void>;
}

/** Nest injection token for the store. */
export const EVENT_STORE = Symbol('EVENT_STORE');
