// The base of a wrapper around the store (timing, upcasting, sealing): every call passes through to `inner`
// unless the wrapper overrides it, so each wrapper says only what it changes.
import type {
  AppendResult,
  EnvelopePart,
  EventStore,
  EventToAppend,
  ExpectedRevision,
  LogEvent,
  ReadAllOptions,
  ReadLogOptions,
  ReadStreamOptions,
  ReadStreamResult,
  RecordedEvent,
  StreamAppend,
  SubscribeToAllOptions,
  Subscription,
} from './event-store.port.js';

export abstract class ForwardingEventStore implements EventStore {
  readLogByStream: EventStore['readLogByStream'];
  commitStats: EventStore['commitStats'];
  readonly appendsAcrossStreamsAtomically: boolean;

  protected constructor(protected readonly inner: EventStore) {
    this.readLogByStream = inner.readLogByStream?.bind(inner);
    this.commitStats = inner.commitStats?.bind(inner);
    this.appendsAcrossStreamsAtomically = inner.appendsAcrossStreamsAtomically;
  }

  append(
    streamId: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    return this.inner.append(streamId, events, expectedRevision);
  }

  appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    return this.inner.appendToStreams(appends);
  }

  readStream(streamId: string, options?: ReadStreamOptions): Promise<ReadStreamResult> {
    return this.inner.readStream(streamId, options);
  }

  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]> {
    return this.inner.readAll(options);
  }

  readLog<P extends EnvelopePart = never>(options: ReadLogOptions<P>): Promise<LogEvent<P>[]> {
    return this.inner.readLog(options);
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    return this.inner.subscribeToAll(options);
  }

  headPosition(): Promise<bigint | undefined> {
    return this.inner.headPosition();
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  storeId(): Promise<string> {
    return this.inner.storeId();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
