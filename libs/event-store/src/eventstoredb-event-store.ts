// One adapter of the EventStore port: its append, reads, subscription and timeouts share one connection.
import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  ErrorType,
  type AllStreamResolvedEvent,
  type Position,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  EventStoreClosedError,
  EventStoreTimeoutError,
  StreamDeletedError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EnvelopePart,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type LogEvent,
  type ReadAllOptions,
  type ReadLogOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeToAllOptions,
  type Subscription,
} from './event-store.port.js';
import {
  isNotLeader,
  isSoftDeletedMetadata,
  isWriteOutcomeUnknown,
  toPortAppendError,
  toPortReadError,
} from './eventstoredb-errors.js';
import {
  isAfter,
  isSystemEvent,
  rawStreamHash,
  toEventStoreDbExpectedRevision,
  toEventStoreDbPosition,
  toRecordedEvent,
} from './eventstoredb-mapping.js';
import { consumeRead, ON_THE_LEADER, type CancelRead } from './eventstoredb-read.js';
import { EventStoreDbSubscription } from './eventstoredb-subscription.js';
import { replayedAppendResult } from './idempotent-replay.js';
import { StreamChainer } from './eventstoredb-stream-hashes.js';
import {
  assertAppendSize,
  assertValidAppend,
  assertValidAppends,
  assertValidMaxCount,
  serializeEvents,
} from './request-validation.js';

export type EventStoreDbConnection = Pick<
  EventStoreDBClient,
  'appendToStream' | 'readStream' | 'readAll' | 'subscribeToAll' | 'dispose'
>;

/** The adapter's own bounds: the client sets none on reads. */
export type EventStoreDbTimeouts = {
  readMs: number;
  pingMs: number;
  /** For a server that does not answer at all: it answers a write it gave up on after 2 s. */
  appendMs: number;
  /** How long calls in flight at close() may finish before they are cancelled. */
  closeMs: number;
};

export const DEFAULT_EVENTSTOREDB_TIMEOUTS: EventStoreDbTimeouts = {
  readMs: 10_000,
  pingMs: 2_000,
  appendMs: 10_000,
  closeMs: 5_000,
};

const ALL_PAGE_SIZE = 1_000;
/** Read backwards from the end of $all first: the last event is usually one of Chorus's. */
const TAIL_PAGE_SIZE = 32;
const MAX_PINNED_ATTEMPTS = 50;
const MAX_UNKNOWN_OUTCOME_ATTEMPTS = 3;
/** Resent after 100, 200, 400, 800 ms: an election's length. */
const MAX_NOT_LEADER_ATTEMPTS = 5;
const LIVE_STREAMS_KEPT = 10_000;
/** Its `$metadata` events are system events: no reader of $all and no headPosition sees them. */
const IDENTITY_STREAM = 'chorus-store';
const IDENTITY_PROPERTY = 'chorusStoreId';

/**
 * Closes the gaps in EventStoreDB's idempotency (kurrent-io/KurrentDB issues 1898 and 2274): a wrong-expected-version
 * reads the revisions the append targeted, and 'any' / 'stream_exists' appends are pinned to the revision read before.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly appendsAcrossStreamsAtomically = false;
  private closed = false;
  private closing: Promise<void> | undefined;
  private identity: Promise<string> | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly callerReads = new Set<CancelRead>();
  private readonly subscriptions = new Set<EventStoreDbSubscription>();
  private readonly timeouts: EventStoreDbTimeouts;
  /** Each stream's chain (stream-chain.ts): its hashes given at append. */
  private readonly chain: StreamChainer;

  static connect(connectionString: string, timeouts: Partial<EventStoreDbTimeouts> = {}): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString), timeouts);
  }

  constructor(
    private readonly client: EventStoreDbConnection,
    timeouts: Partial<EventStoreDbTimeouts> = {},
  ) {
    this.timeouts = { ...DEFAULT_EVENTSTOREDB_TIMEOUTS, ...timeouts };
    this.chain = new StreamChainer(client, this.timeouts.readMs, LIVE_STREAMS_KEPT);
  }

  append(
    streamId: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    return this.track(async () => {
      assertValidAppend(streamId, events, expectedRevision);
      assertAppendSize(streamId, serializeEvents(streamId, events));
      // A soft-deleted stream would accept this append and start again where it left off.
      const knownAlive = typeof expectedRevision === 'bigint' && this.liveAt.get(streamId) === expectedRevision;
      if (!knownAlive && (await this.isDeleted(streamId))) throw new StreamDeletedError(streamId);
      if (expectedRevision === 'any' || expectedRevision === 'stream_exists') {
        return this.appendPinned(streamId, events, expectedRevision);
      }
      return this.appendAt(streamId, events, expectedRevision);
    });
  }

  /**
   * EventStoreDB has no transaction across streams: the parts go in order, each atomic alone. A failure after the first
   * leaves the earlier parts written; the command's retry reads them, decides again on what they say, and appends the
   * rest (README.md, Appends to several streams).
   */
  async appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    assertValidAppends(appends);
    const results: AppendResult[] = [];
    for (const { streamId, events, expectedRevision } of appends)
      results.push(await this.append(streamId, events, expectedRevision));
    return results;
  }

  readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    return this.track(() => this.readStreamEvents(streamId, options, this.forCaller));
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.track(async () => {
      assertValidMaxCount(options.maxCount);
      const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
      const events: RecordedEvent[] = [];
      let after = options.fromPosition === undefined ? undefined : toEventStoreDbPosition(options.fromPosition);
      for (;;) {
        // Reads of $all start AT the given position: one more than needed, for that one.
        const pageSize = Math.min(ALL_PAGE_SIZE, limit - events.length + 1);
        let received = 0;
        const page = this.client.readAll({
          direction: FORWARDS,
          fromPosition: after ?? START,
          maxCount: pageSize,
          ...ON_THE_LEADER,
        });
        await consumeRead(
          page,
          this.readBounds('a read of $all', this.forCaller),
          (resolved: AllStreamResolvedEvent) => {
            received += 1;
            const event = resolved.event;
            if (event === undefined || !isAfter(event.position, after)) return true;
            after = event.position;
            if (!isSystemEvent(event)) events.push(toRecordedEvent(event));
            return events.length < limit;
          },
        );
        if (events.length >= limit || received < pageSize) return events;
      }
    });
  }

  /** Every part, always: the client has decoded the whole event already. */
  readLog<P extends EnvelopePart = never>(options: ReadLogOptions<P>): Promise<LogEvent<P>[]> {
    const { parts: _parts, ...page } = options;
    return this.readAll(page);
  }

  headPosition(): Promise<bigint | undefined> {
    return this.track(async () => {
      let before: Position | typeof END = END;
      for (let pageSize = TAIL_PAGE_SIZE; ; pageSize = ALL_PAGE_SIZE) {
        let received = 0;
        let oldest: Position | undefined;
        let head: bigint | undefined;
        const page = this.client.readAll({
          direction: BACKWARDS,
          fromPosition: before,
          maxCount: pageSize,
          ...ON_THE_LEADER,
        });
        await consumeRead(
          page,
          this.readBounds('a read of the end of $all', this.forCaller),
          (resolved: AllStreamResolvedEvent) => {
            received += 1;
            const event = resolved.event;
            if (event === undefined) return true;
            if (!isSystemEvent(event)) {
              head = event.position.commit;
              return false;
            }
            oldest = event.position;
            return true;
          },
        );
        if (head !== undefined) return head;
        if (received < pageSize || oldest === undefined) return undefined;
        before = oldest;
      }
    });
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    if (this.closed) throw new EventStoreClosedError();
    const subscription: EventStoreDbSubscription = new EventStoreDbSubscription(
      this.client,
      options,
      () => this.logEnd(),
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  ping(): Promise<void> {
    return this.track(async () => {
      const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, ...ON_THE_LEADER });
      await consumeRead(
        read,
        { operation: 'a ping', timeoutMs: this.timeouts.pingMs, register: this.forCaller },
        () => false,
      );
    });
  }

  /** Written once by whoever asks first, with NO_STREAM so that concurrent first callers agree. */
  storeId(): Promise<string> {
    return this.track(() => {
      this.identity ??= this.readOrCreateIdentity().catch((error: unknown) => {
        this.identity = undefined;
        throw error;
      });
      return this.identity;
    });
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    const deadline = Date.now() + this.timeouts.closeMs;
    await settledWithin([...this.inFlight], deadline - Date.now());
    for (const cancel of [...this.callerReads]) cancel(new EventStoreClosedError());
    await settledWithin(
      [...this.subscriptions].map((subscription) => subscription.stop(new EventStoreClosedError())),
      Math.max(0, deadline - Date.now()),
    );
    await settledWithin([this.client.dispose()], Math.max(1_000, deadline - Date.now()));
  }

  private track<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new EventStoreClosedError());
    const running = operation();
    this.inFlight.add(running);
    const forget = () => this.inFlight.delete(running);
    running.then(forget, forget);
    return running;
  }

  private readonly forCaller = (cancel: CancelRead): (() => void) => {
    this.callerReads.add(cancel);
    return () => this.callerReads.delete(cancel);
  };

  private readBounds(operation: string, register?: (cancel: CancelRead) => () => void) {
    return { operation, timeoutMs: this.timeouts.readMs, ...(register === undefined ? {} : { register }) };
  }

  private async appendAt(
    streamId: string,
    events: readonly EventToAppend[],
    expected: 'no_stream' | bigint,
  ): Promise<AppendResult> {
    const firstRevision = expected === 'no_stream' ? 0n : expected + 1n;
    const ids = events.map((event) => event.id);
    const { data, last } = await this.chain.chained(streamId, events, expected);
    let leaderChanges = 0;
    for (let attempt = 1; ; attempt += 1) {
      try {
        const result = await within(
          this.client.appendToStream(streamId, data, {
            expectedRevision: toEventStoreDbExpectedRevision(expected),
            ...ON_THE_LEADER,
          }),
          this.timeouts.appendMs,
          `an append to ${streamId}`,
        );
        // The server answers a write it recognised as a duplicate without a position.
        const position = result.position?.commit ?? (await this.positionOf(streamId, result.nextExpectedRevision));
        this.remember(streamId, result.nextExpectedRevision);
        this.chain.note(streamId, result.nextExpectedRevision, last);
        return { nextExpectedRevision: result.nextExpectedRevision, position };
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          // The server's duplicate check is best effort.
          const replay = await this.replayAt(streamId, ids, firstRevision);
          if (replay !== undefined) return replay;
          throw new WrongExpectedRevisionError(streamId, expected, error.actualVersion);
        }
        if (isNotLeader(error) && leaderChanges < MAX_NOT_LEADER_ATTEMPTS - 1) {
          // Not written: the client reconnects to the new leader; send it there once it is known.
          await sleep(100 * 2 ** leaderChanges);
          leaderChanges += 1;
          attempt -= 1;
          continue;
        }
        if (!isWriteOutcomeUnknown(error) || attempt >= MAX_UNKNOWN_OUTCOME_ATTEMPTS)
          throw toPortAppendError(error, streamId);
        // Written or not: a repeat the server dropped because the original was not yet indexed finds it now.
        const replay = await this.replayAt(streamId, ids, firstRevision);
        if (replay !== undefined) return replay;
        // Sending the same ids at the same revision again is safe either way.
      }
    }
  }

  /** Pinned so that the exact-revision path and its replay check apply. */
  private async appendPinned(
    streamId: string,
    events: readonly EventToAppend[],
    expected: 'any' | 'stream_exists',
  ): Promise<AppendResult> {
    const ids = events.map((event) => event.id);
    for (let attempt = 1; ; attempt += 1) {
      const tail = await this.readStreamOrDeleted(streamId, { direction: 'backwards', maxCount: ids.length });
      // A tombstone does not show in the metadata the append checked first.
      if (tail === 'deleted') throw new StreamDeletedError(streamId);
      if (!tail.found && expected === 'stream_exists')
        throw new WrongExpectedRevisionError(streamId, expected, 'no_stream');
      const stored = tail.found ? [...tail.events].reverse() : [];
      const first = stored[0];
      const replay = first === undefined ? undefined : replayedAppendResult(ids, stored, first.revision);
      if (replay !== undefined) return replay;
      try {
        return await this.appendAt(streamId, events, tail.found ? (tail.events[0]?.revision ?? 0n) : 'no_stream');
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt >= MAX_PINNED_ATTEMPTS) throw new WrongExpectedRevisionError(streamId, expected, error.actual);
      }
    }
  }

  private readonly liveAt = new Map<string, bigint>();
  private remember(streamId: string, revision: bigint): void {
    this.liveAt.delete(streamId);
    this.liveAt.set(streamId, revision);
    if (this.liveAt.size > LIVE_STREAMS_KEPT) this.liveAt.delete(this.liveAt.keys().next().value as string);
  }

  private async replayAt(
    streamId: string,
    ids: readonly string[],
    firstRevision: bigint,
  ): Promise<AppendResult | undefined> {
    const read = await this.readStreamEvents(streamId, { fromRevision: firstRevision, maxCount: ids.length });
    return read.found ? replayedAppendResult(ids, read.events, firstRevision) : undefined;
  }

  private async positionOf(streamId: string, revision: bigint): Promise<bigint> {
    const read = await this.readStreamEvents(streamId, { fromRevision: revision, maxCount: 1 });
    const event = read.found ? read.events[0] : undefined;
    if (event === undefined)
      throw new Error(`Stream ${streamId}: revision ${revision} was acknowledged but cannot be read`);
    return event.position;
  }

  /** A tombstoned stream answers StreamDeleted itself; a soft-deleted one says so only in its metadata. */
  private async isDeleted(streamId: string): Promise<boolean> {
    const last = await this.lastEventOf(`$$${streamId}`, 'a read of stream metadata');
    return last === 'deleted' || (last !== undefined && isSoftDeletedMetadata(last.data));
  }

  private async readOrCreateIdentity(): Promise<string> {
    for (;;) {
      const last = await this.lastEventOf(`$$${IDENTITY_STREAM}`, 'a read of the store identity', this.forCaller);
      if (last === 'deleted') throw new Error(`The stream ${IDENTITY_STREAM} that names this event store was deleted`);
      const existing =
        last === undefined ? undefined : (last.data as Record<string, unknown> | null)?.[IDENTITY_PROPERTY];
      if (typeof existing === 'string') return existing;
      const identity = randomUUID();
      const marker = jsonEvent({
        type: '$metadata',
        data: {
          [IDENTITY_PROPERTY]: identity,
          purpose: 'names this event store; Chorus read models record it with their checkpoints',
        },
      });
      try {
        await within(
          this.client.appendToStream(`$$${IDENTITY_STREAM}`, marker, {
            expectedRevision: last === undefined ? NO_STREAM : last.revision,
            ...ON_THE_LEADER,
          }),
          this.timeouts.appendMs,
          'the store identity',
        );
        return identity;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
      }
    }
  }

  private async lastEventOf(
    streamId: string,
    operation: string,
    register?: (cancel: CancelRead) => () => void,
  ): Promise<{ data: unknown; revision: bigint } | 'deleted' | undefined> {
    let last: { data: unknown; revision: bigint } | undefined;
    try {
      const read = this.client.readStream(streamId, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
        ...ON_THE_LEADER,
      });
      await consumeRead(read, this.readBounds(operation, register), (resolved: ResolvedEvent) => {
        if (resolved.event !== undefined) last = { data: resolved.event.data, revision: resolved.event.revision };
        return false;
      });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      if (error instanceof Error && 'type' in error && error.type === ErrorType.STREAM_DELETED) return 'deleted';
      throw error;
    }
    return last;
  }

  /** System events included: a subscription may start from one. */
  private async logEnd(): Promise<Position | undefined> {
    let end: Position | undefined;
    const read = this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, ...ON_THE_LEADER });
    await consumeRead(read, this.readBounds('a read of the end of the log'), (resolved: AllStreamResolvedEvent) => {
      end = resolved.event?.position ?? end;
      return false;
    });
    return end;
  }

  private async readStreamEvents(
    streamId: string,
    options: ReadStreamOptions,
    register?: (cancel: CancelRead) => () => void,
  ): Promise<ReadStreamResult> {
    const read = await this.readStreamOrDeleted(streamId, options, register);
    // A tombstoned stream reads as not found, like a soft-deleted one (whose events the server hides).
    return read === 'deleted' ? { found: false } : read;
  }

  private async readStreamOrDeleted(
    streamId: string,
    options: ReadStreamOptions,
    register?: (cancel: CancelRead) => () => void,
  ): Promise<ReadStreamResult | 'deleted'> {
    assertValidMaxCount(options.maxCount);
    const backwards = options.direction === 'backwards';
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        ...ON_THE_LEADER,
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision: options.fromRevision ?? (backwards ? END : START),
        ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
      });
      await consumeRead(read, this.readBounds(`a read of ${streamId}`, register), (resolved: ResolvedEvent) => {
        if (resolved.event === undefined) return true;
        events.push(toRecordedEvent(resolved.event));
        this.chain.note(streamId, resolved.event.revision, rawStreamHash(resolved.event));
        return true;
      });
    } catch (error) {
      const gone =
        error instanceof StreamNotFoundError ||
        (error instanceof Error && 'type' in error && error.type === ErrorType.STREAM_DELETED);
      if (gone) this.liveAt.delete(streamId);
      if (error instanceof StreamNotFoundError) return { found: false };
      if (gone) return 'deleted';
      throw toPortReadError(error, `a read of ${streamId}`);
    }
    return { found: true, events };
  }
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function settledWithin(promises: readonly Promise<unknown>[], milliseconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(promises),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, milliseconds);
    }),
  ]);
  clearTimeout(timer);
}

async function within<T>(promise: Promise<T>, milliseconds: number, operation: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  promise.catch(() => undefined);
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new EventStoreTimeoutError(operation, milliseconds)), milliseconds);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
