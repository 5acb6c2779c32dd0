// An in-memory event store at EventStoreDB's weakest: expected revisions are enforced, event ids are
// never checked (the server's duplicate detection is best effort), and every call yields to others
// first, so concurrent callers interleave at each await as they would over the network.
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadAllOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type Subscription,
} from '#event-store';

const yieldToOthers = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class StoreWithoutDuplicateDetection implements EventStore {
  readonly recorded: RecordedEvent[] = [];

  async append(streamId: string, events: readonly EventToAppend[], expected: ExpectedRevision): Promise<AppendResult> {
    await yieldToOthers();
    const current = this.stream(streamId).at(-1)?.revision;
    const holds =
      expected === 'any' ||
      (expected === 'no_stream' && current === undefined) ||
      (expected === 'stream_exists' && current !== undefined) ||
      (typeof expected === 'bigint' && expected === current);
    if (!holds) throw new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
    let revision = current ?? -1n;
    for (const event of events) {
      revision += 1n;
      this.recorded.push({ ...structuredClone(event), streamId, revision, position: BigInt(this.recorded.length + 1), recordedAt: new Date().toISOString() });
    }
    return { nextExpectedRevision: revision, position: BigInt(this.recorded.length) };
  }

  async readStream(streamId: string, { fromRevision = 0n, maxCount }: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    await yieldToOthers();
    const stream = this.stream(streamId);
    if (stream.length === 0) return { found: false };
    const events = stream.filter((event) => event.revision >= fromRevision);
    return { found: true, events: structuredClone(maxCount === undefined ? events : events.slice(0, maxCount)) };
  }

  async readAll({ fromPosition = 0n, maxCount }: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    await yieldToOthers();
    const events = this.recorded.filter((event) => event.position > fromPosition);
    return structuredClone(maxCount === undefined ? events : events.slice(0, maxCount));
  }

  async headPosition(): Promise<bigint | undefined> {
    return this.recorded.at(-1)?.position;
  }

  subscribeToAll(): Subscription {
    throw new Error('not needed by these tests');
  }

  async ping(): Promise<void> {}

  async storeId(): Promise<string> {
    return 'in-memory';
  }

  async close(): Promise<void> {}

  private stream(streamId: string): RecordedEvent[] {
    return this.recorded.filter((event) => event.streamId === streamId);
  }
}
