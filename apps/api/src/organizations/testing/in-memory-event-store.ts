// A minimal in-memory EventStore for unit tests of the decider and repository: streams with expected
// revisions, a count of what was read, and a hook that runs before each append (to simulate a rival writer).
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
} from '#event-store';

export class InMemoryEventStore implements EventStore {
  readonly streams = new Map<string, RecordedEvent[]>();
  /** Every readStream call: the stream and the revision it read from. */
  readonly reads: { streamId: string; fromRevision: bigint; returned: number }[] = [];
  beforeAppend: (streamId: string) => void = () => undefined;
  private position = 0n;

  async append(streamId: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    this.beforeAppend(streamId);
    return this.appendNow(streamId, events, expectedRevision);
  }

  /** Appends without the hook: what a rival writer does. */
  appendNow(streamId: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): AppendResult {
    const stream = this.streams.get(streamId) ?? [];
    const actual = stream.length === 0 ? 'no_stream' : BigInt(stream.length - 1);
    const matches =
      expectedRevision === 'any' ||
      (expectedRevision === 'no_stream' && actual === 'no_stream') ||
      (expectedRevision === 'stream_exists' && actual !== 'no_stream') ||
      expectedRevision === actual;
    if (!matches) throw new WrongExpectedRevisionError(streamId, expectedRevision, actual);
    for (const event of events) {
      this.position += 1n;
      stream.push({ ...event, streamId, recordedAt: new Date(0).toISOString(), revision: BigInt(stream.length), position: this.position });
    }
    this.streams.set(streamId, stream);
    return { nextExpectedRevision: BigInt(stream.length - 1), position: this.position };
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    const stream = this.streams.get(streamId);
    if (stream === undefined) return { found: false };
    const fromRevision = options.fromRevision ?? 0n;
    const events = stream.filter((event) => event.revision >= fromRevision).slice(0, options.maxCount);
    this.reads.push({ streamId, fromRevision, returned: events.length });
    return { found: true, events };
  }

  async readAll(): Promise<RecordedEvent[]> {
    return [...this.streams.values()].flat().sort((a, b) => Number(a.position - b.position));
  }

  async headPosition(): Promise<bigint | undefined> {
    return this.position === 0n ? undefined : this.position;
  }

  subscribeToAll(): never {
    throw new Error('Not needed by these unit tests.');
  }

  async ping(): Promise<void> {}

  async storeId(): Promise<string> {
    return 'in-memory';
  }

  async close(): Promise<void> {}
}
