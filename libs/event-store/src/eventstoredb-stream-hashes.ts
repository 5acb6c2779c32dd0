// EventStoreDB's streams' chains given at append (stream-chain.ts). Each stream's hash at the last revision seen is kept
// as the adapter read or wrote it: a command loads its stream before it appends, so the append links to the hash it
// has, and reads the stream's event at the expected revision only when it has none.
import {
  ErrorType,
  StreamNotFoundError,
  type EventData,
  type EventStoreDBClient,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { EventToAppend } from './event-store.port.js';
import { toPortReadError } from './eventstoredb-errors.js';
import { rawStreamHash, toEventData } from './eventstoredb-mapping.js';
import { consumeRead, ON_THE_LEADER } from './eventstoredb-read.js';
import { splitStreamHash, STREAM_HASH, streamLink } from './stream-chain.js';

export class StreamChainer {
  private readonly heads = new Map<string, { revision: bigint; hash: string | undefined }>();

  constructor(
    private readonly client: Pick<EventStoreDBClient, 'readStream'>,
    private readonly readMs: number,
    private readonly kept: number,
  ) {}

  /** The stream's hash at that revision, as read or written (undefined: written before the chain). */
  note(streamId: string, revision: bigint, hash: string | undefined): void {
    const head = this.heads.get(streamId);
    if (head !== undefined && head.revision > revision) return;
    this.heads.delete(streamId);
    this.heads.set(streamId, { revision, hash });
    if (this.heads.size > this.kept) this.heads.delete(this.heads.keys().next().value as string);
  }

  /** The events as sent, each with its stream's chain hash in its metadata; `last`: the last one's hash. */
  async chained(
    streamId: string,
    events: readonly EventToAppend[],
    expected: 'no_stream' | bigint,
  ): Promise<{ data: EventData[]; last: string | undefined }> {
    let previous = expected === 'no_stream' ? undefined : await this.hashAt(streamId, expected);
    let revision = expected === 'no_stream' ? 0n : expected + 1n;
    const data = events.map((event) => {
      const { metadata } = splitStreamHash(event.metadata);
      previous = streamLink(previous, {
        streamId,
        revision,
        id: event.id,
        type: event.type,
        data: event.data,
        metadata,
      });
      revision += 1n;
      const withHash: Record<string, unknown> = { ...metadata, [STREAM_HASH]: previous };
      return toEventData({ ...event, metadata: withHash as EventToAppend['metadata'] });
    });
    return { data, last: previous };
  }

  private async hashAt(streamId: string, revision: bigint): Promise<string | undefined> {
    const head = this.heads.get(streamId);
    if (head?.revision === revision) return head.hash;
    let hash: string | undefined;
    try {
      const read = this.client.readStream(streamId, { ...ON_THE_LEADER, fromRevision: revision, maxCount: 1 });
      await consumeRead(
        read,
        { operation: `a read of ${streamId}`, timeoutMs: this.readMs },
        (resolved: ResolvedEvent) => {
          if (resolved.event?.revision === revision) hash = rawStreamHash(resolved.event);
          return true;
        },
      );
    } catch (error) {
      // A stream gone or not there: the append answers so itself.
      const gone = error instanceof Error && 'type' in error && error.type === ErrorType.STREAM_DELETED;
      if (error instanceof StreamNotFoundError || gone) return undefined;
      throw toPortReadError(error, `a read of ${streamId}`);
    }
    return hash;
  }
}
