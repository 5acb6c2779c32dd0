// An in-memory stand-in for an EventStoreDB server behind `@eventstore/db-client`, for driving the
// adapter where no server can run. It answers like the client does (same result shapes, same error
// classes, reads that fail while iterating, a Readable subscription with `caughtUp`), and it models the
// server at its WEAKEST: no duplicate detection at all (kurrent-io/KurrentDB issues 1898 and 2274),
// sparse commit positions, and its own system events interleaved in $all.
import { randomUUID } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import {
  ANY,
  BACKWARDS,
  END,
  EVENT_TYPE,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type AllStreamJSONRecordedEvent,
  type AllStreamResolvedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  type AppendResult,
  type AppendToStreamOptions,
  type CurrentRevision,
  type EventData,
  type EventType,
  type Filter,
  type JSONType,
  type Position,
  type ReadAllOptions,
  type ReadPosition,
  type ReadStreamOptions,
  type ResolvedEvent,
  type StreamingRead,
  type SubscribeToAllOptions,
} from '@eventstore/db-client';
import type { EventStoreDbConnection } from '../eventstoredb-event-store.js';

type Stored = AllStreamJSONRecordedEvent;

class SimulatedSubscription extends PassThrough {
  id = 'simulated';
  cancelled = false;

  constructor(private readonly onCancel: () => void) {
    super({ objectMode: true });
  }

  async unsubscribe(): Promise<void> {
    this.cancelled = true;
    this.onCancel();
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function compare(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

function passesServerFilter(filter: Filter | undefined, event: Stored): boolean {
  if (filter === undefined) return true;
  const subject = filter.filterOn === EVENT_TYPE ? event.type : event.streamId;
  if ('prefixes' in filter) return filter.prefixes.some((prefix) => subject.startsWith(prefix));
  return new RegExp(filter.regex).test(subject);
}

/** The server: its log, its live subscriptions. Each `connect()` is a client of it. */
export class SimulatedEventStoreDb {
  private readonly log: Stored[] = [];
  private readonly live = new Map<SimulatedSubscription, Filter | undefined>();
  private nextPosition = 4_096n;
  private appends = 0;

  connect(): EventStoreDbConnection {
    return new SimulatedClient(this);
  }

  async appendToStream<KnownEventType extends EventType = EventType>(
    streamName: string,
    events: EventData<KnownEventType> | EventData<KnownEventType>[],
    options: AppendToStreamOptions = {},
  ): Promise<AppendResult> {
    await nextTurn();
    const list = Array.isArray(events) ? events : [events];
    const current = this.currentRevision(streamName);
    const expected = options.expectedRevision ?? ANY;
    if (!holds(expected, current)) throw new WrongExpectedVersionError(undefined, { streamName, expected, current });
    let revision = current === NO_STREAM ? -1n : current;
    let last: Stored | undefined;
    for (const event of list) {
      revision += 1n;
      last = this.record(streamName, revision, event.id, event.type, event.data, event.metadata);
    }
    this.appends += 1;
    // The server writes its own bookkeeping into $all now and then.
    if (this.appends % 3 === 0) this.record('$stats-simulated', BigInt(this.appends), randomUUID(), '$statsCollected', {}, {});
    return { success: true, nextExpectedRevision: revision, position: last?.position };
  }

  readStream<KnownEventType extends EventType = EventType>(
    streamName: string,
    options: ReadStreamOptions = {},
  ): StreamingRead<ResolvedEvent<KnownEventType>> {
    const { direction, fromRevision = START, maxCount = Number.MAX_SAFE_INTEGER } = options;
    const log = this.log;
    async function* read() {
      await nextTurn();
      const stream = log.filter((event) => event.streamId === streamName);
      if (stream.length === 0) throw new StreamNotFoundError(undefined, streamName);
      const selected =
        direction === BACKWARDS
          ? stream.filter((event) => fromRevision === END || (fromRevision === START ? event.revision === 0n : event.revision <= fromRevision)).reverse()
          : stream.filter((event) => fromRevision === START || (fromRevision !== END && event.revision >= fromRevision));
      for (const event of selected.slice(0, Number(maxCount))) yield { event };
    }
    return Readable.from(read()) as unknown as StreamingRead<ResolvedEvent<KnownEventType>>;
  }

  readAll(options: ReadAllOptions = {}): StreamingRead<AllStreamResolvedEvent> {
    const { direction, fromPosition = START, maxCount = Number.MAX_SAFE_INTEGER } = options;
    const log = this.log;
    async function* read() {
      await nextTurn();
      const selected =
        direction === BACKWARDS
          ? log.filter((event) => fromPosition === END || (fromPosition !== START && compare(event.position, fromPosition) < 0)).reverse()
          : log.filter((event) => fromPosition === START || (fromPosition !== END && compare(event.position, fromPosition) >= 0));
      for (const event of selected.slice(0, Number(maxCount))) yield { event, commitPosition: event.position.commit };
    }
    return Readable.from(read()) as unknown as StreamingRead<AllStreamResolvedEvent>;
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): AllStreamSubscription {
    const from: ReadPosition = options.fromPosition ?? START;
    const subscription: SimulatedSubscription = new SimulatedSubscription(() => this.live.delete(subscription));
    subscription.once('close', () => this.live.delete(subscription));
    setImmediate(() => {
      if (subscription.cancelled || subscription.destroyed) return;
      subscription.emit('confirmation');
      // A subscription from a position starts after it; then the stored events, then the signal, then live.
      for (const event of this.log) {
        const after = from === START || (from !== END && compare(event.position, from) > 0);
        if (after && passesServerFilter(options.filter, event)) subscription.write({ event, commitPosition: event.position.commit });
      }
      this.live.set(subscription, options.filter);
      subscription.emit('caughtUp');
    });
    return subscription as unknown as AllStreamSubscription;
  }

  /** The connection drops: every live subscription fails as the client reports it. */
  dropSubscriptions(): void {
    for (const subscription of [...this.live.keys()]) {
      this.live.delete(subscription);
      subscription.destroy(new UnavailableError());
    }
  }

  /** How many subscriptions the server is feeding. */
  liveSubscriptions(): number {
    return this.live.size;
  }

  private record(streamId: string, revision: bigint, id: string, type: string, data: unknown, metadata: unknown): Stored {
    const body = JSON.stringify(data);
    const position = { commit: this.nextPosition, prepare: this.nextPosition };
    this.nextPosition += 128n + BigInt(body.length);
    const event: Stored = {
      streamId,
      id,
      isJson: true,
      revision,
      type,
      created: new Date(),
      data: JSON.parse(body) as JSONType,
      metadata: JSON.parse(JSON.stringify(metadata ?? {})) as JSONType,
      position,
    };
    this.log.push(event);
    for (const [subscription, filter] of this.live) {
      if (passesServerFilter(filter, event)) subscription.write({ event, commitPosition: position.commit });
    }
    return event;
  }

  private currentRevision(streamName: string): CurrentRevision {
    const stream = this.log.filter((event) => event.streamId === streamName);
    return stream[stream.length - 1]?.revision ?? NO_STREAM;
  }
}

/** One client connection: refuses calls once disposed, and disposing ends its subscriptions. */
class SimulatedClient implements EventStoreDbConnection {
  private disposed = false;
  private readonly subscriptions = new Set<AllStreamSubscription>();

  constructor(private readonly server: SimulatedEventStoreDb) {}

  appendToStream<KnownEventType extends EventType = EventType>(
    streamName: string,
    events: EventData<KnownEventType> | EventData<KnownEventType>[],
    options?: AppendToStreamOptions,
  ): Promise<AppendResult> {
    this.assertConnected();
    return this.server.appendToStream(streamName, events, options);
  }

  readStream<KnownEventType extends EventType = EventType>(
    streamName: string,
    options?: ReadStreamOptions,
  ): StreamingRead<ResolvedEvent<KnownEventType>> {
    this.assertConnected();
    return this.server.readStream<KnownEventType>(streamName, options);
  }

  readAll(options?: ReadAllOptions): StreamingRead<AllStreamResolvedEvent> {
    this.assertConnected();
    return this.server.readAll(options);
  }

  subscribeToAll(options?: SubscribeToAllOptions): AllStreamSubscription {
    this.assertConnected();
    const subscription = this.server.subscribeToAll(options);
    this.subscriptions.add(subscription);
    return subscription;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    for (const subscription of this.subscriptions) subscription.destroy();
  }

  private assertConnected(): void {
    if (this.disposed) throw new Error('the client was disposed');
  }
}

function holds(expected: AppendExpectedRevision, current: CurrentRevision): boolean {
  if (expected === ANY) return true;
  if (expected === NO_STREAM) return current === NO_STREAM;
  if (expected === STREAM_EXISTS) return current !== NO_STREAM;
  return current === expected;
}
