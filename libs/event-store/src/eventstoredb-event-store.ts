import {
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type EventData,
  type Position,
} from '@eventstore/db-client';
import {
  EventStoreClosedError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type Subscription,
} from './event-store.port.js';
import {
  isAfter,
  isSystemEvent,
  toEventData,
  toEventStoreDbExpectedRevision,
  toEventStoreDbPosition,
  toRecordedEvent,
} from './eventstoredb-mapping.js';
import { EventStoreDbSubscription } from './eventstoredb-subscription.js';
import { replayedAppendResult } from './idempotent-replay.js';
import { assertValidAppend, assertValidMaxCount, toJsonText } from './request-validation.js';

/** What the adapter uses of the client. */
export type EventStoreDbConnection = Pick<EventStoreDBClient, 'appendToStream' | 'readStream' | 'readAll' | 'subscribeToAll' | 'dispose'>;

/** Events asked of the server per read of $all. */
const ALL_PAGE_SIZE = 1_000;
/** 'any' / 'stream_exists' appends pinned to a revision retry this often when others keep appending first. */
const MAX_PINNED_ATTEMPTS = 50;

/**
 * The EventStoreDB adapter (`@eventstore/db-client`). It closes the gaps in EventStoreDB's idempotency
 * (kurrent-io/KurrentDB issues 1898 and 2274): a wrong-expected-version is answered by reading the
 * revisions the append targeted, and 'any' / 'stream_exists' appends are pinned to the revision read
 * just before them. See README.md.
 */
export class EventStoreDbEventStore implements EventStore {
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly subscriptions = new Set<EventStoreDbSubscription>();

  static connect(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(connectionString));
  }

  constructor(private readonly client: EventStoreDbConnection) {}

  append(streamId: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    return this.track(async () => {
      assertValidAppend(streamId, events, expectedRevision);
      for (const event of events) {
        toJsonText(event.data, `Stream ${streamId}: data of event ${event.id}`);
        toJsonText(event.metadata, `Stream ${streamId}: metadata of event ${event.id}`);
      }
      const data = events.map(toEventData);
      const ids = events.map((event) => event.id);
      if (expectedRevision === 'any' || expectedRevision === 'stream_exists') {
        return this.appendPinned(streamId, ids, data, expectedRevision);
      }
      return this.appendAt(streamId, ids, data, expectedRevision);
    });
  }

  readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    return this.track(() => this.readStreamEvents(streamId, options));
  }

  readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    return this.track(async () => {
      assertValidMaxCount(options.maxCount);
      const limit = options.maxCount ?? Number.POSITIVE_INFINITY;
      const events: RecordedEvent[] = [];
      let after = options.fromPosition === undefined ? undefined : toEventStoreDbPosition(options.fromPosition);
      for (;;) {
        let received = 0;
        const page = this.client.readAll({ direction: FORWARDS, fromPosition: after ?? START, maxCount: ALL_PAGE_SIZE });
        for await (const resolved of page) {
          received += 1;
          const event = resolved.event;
          // Reads of $all start AT the given position: it and anything before is not "after".
          if (event === undefined || !isAfter(event.position, after)) continue;
          after = event.position;
          if (isSystemEvent(event)) continue;
          events.push(toRecordedEvent(event));
          if (events.length >= limit) return events;
        }
        if (received < ALL_PAGE_SIZE) return events;
      }
    });
  }

  headPosition(): Promise<bigint | undefined> {
    return this.track(async () => {
      let before: Position | typeof END = END;
      for (;;) {
        let received = 0;
        let oldest: Position | undefined;
        for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: before, maxCount: ALL_PAGE_SIZE })) {
          received += 1;
          const event = resolved.event;
          if (event === undefined) continue;
          if (!isSystemEvent(event)) return event.position.commit;
          oldest = event.position;
        }
        if (received < ALL_PAGE_SIZE || oldest === undefined) return undefined;
        before = oldest;
      }
    });
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    if (this.closed) throw new EventStoreClosedError();
    const subscription: EventStoreDbSubscription = new EventStoreDbSubscription(this.client, options, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  ping(): Promise<void> {
    return this.track(async () => {
      for await (const _event of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
        // Reaching the server is the point; the event itself is not needed.
      }
    });
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop(new EventStoreClosedError())));
    await this.client.dispose();
  }

  /** Runs an operation unless closed, and lets close() wait for it. */
  private track<T>(operation: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new EventStoreClosedError());
    const running = operation();
    this.inFlight.add(running);
    const forget = () => this.inFlight.delete(running);
    running.then(forget, forget);
    return running;
  }

  private async appendAt(
    streamId: string,
    ids: readonly string[],
    data: EventData[],
    expected: 'no_stream' | bigint,
  ): Promise<AppendResult> {
    try {
      const result = await this.client.appendToStream(streamId, data, { expectedRevision: toEventStoreDbExpectedRevision(expected) });
      // The server answers a write it recognised as a duplicate without a position.
      const position = result.position?.commit ?? (await this.positionOf(streamId, result.nextExpectedRevision));
      return { nextExpectedRevision: result.nextExpectedRevision, position };
    } catch (error) {
      if (!(error instanceof WrongExpectedVersionError)) throw error;
      // The server's own duplicate check is best effort: look where this append would have gone.
      const replay = await this.replayAt(streamId, ids, expected === 'no_stream' ? 0n : expected + 1n);
      if (replay !== undefined) return replay;
      throw new WrongExpectedRevisionError(streamId, expected, error.actualVersion);
    }
  }

  /** 'any' and 'stream_exists' pinned to the revision just read, so the exact-revision path and its replay check apply. */
  private async appendPinned(
    streamId: string,
    ids: readonly string[],
    data: EventData[],
    expected: 'any' | 'stream_exists',
  ): Promise<AppendResult> {
    for (let attempt = 1; ; attempt += 1) {
      const tail = await this.readStreamEvents(streamId, { direction: 'backwards', maxCount: ids.length });
      if (!tail.found && expected === 'stream_exists') throw new WrongExpectedRevisionError(streamId, expected, 'no_stream');
      const stored = tail.found ? [...tail.events].reverse() : [];
      const first = stored[0];
      const replay = first === undefined ? undefined : replayedAppendResult(ids, stored, first.revision);
      if (replay !== undefined) return replay;
      try {
        return await this.appendAt(streamId, ids, data, tail.found ? (tail.events[0]?.revision ?? 0n) : 'no_stream');
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt >= MAX_PINNED_ATTEMPTS) throw new WrongExpectedRevisionError(streamId, expected, error.actual);
      }
    }
  }

  private async replayAt(streamId: string, ids: readonly string[], firstRevision: bigint): Promise<AppendResult | undefined> {
    const read = await this.readStreamEvents(streamId, { fromRevision: firstRevision, maxCount: ids.length });
    return read.found ? replayedAppendResult(ids, read.events, firstRevision) : undefined;
  }

  private async positionOf(streamId: string, revision: bigint): Promise<bigint> {
    const read = await this.readStreamEvents(streamId, { fromRevision: revision, maxCount: 1 });
    const event = read.found ? read.events[0] : undefined;
    if (event === undefined) throw new Error(`Stream ${streamId}: revision ${revision} was acknowledged but cannot be read`);
    return event.position;
  }

  private async readStreamEvents(streamId: string, options: ReadStreamOptions): Promise<ReadStreamResult> {
    assertValidMaxCount(options.maxCount);
    const backwards = options.direction === 'backwards';
    const events: RecordedEvent[] = [];
    try {
      const read = this.client.readStream(streamId, {
        direction: backwards ? BACKWARDS : FORWARDS,
        fromRevision: options.fromRevision ?? (backwards ? END : START),
        ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
      });
      for await (const resolved of read) {
        if (resolved.event !== undefined) events.push(toRecordedEvent(resolved.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { found: false };
      throw error;
    }
    return { found: true, events };
  }
}
