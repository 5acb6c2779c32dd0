// EventStoreDB as a copy's source or target (store:copy, and the sealing of an EventStoreDB store by a copy into a new
// database). Out of it, every event keeps its position, id, stream, revision, type, time and metadata. Into it, every
// field but the two EventStoreDB gives as it commits, the position and the time: those go into the event's metadata
// (copied-from.ts). Chorus's key streams are not events of the log: a copy carries keys as keys.
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  FORWARDS,
  START,
  StreamDeletedError,
  type AllStreamResolvedEvent,
  type Position,
  type RecordedEvent as EventStoreDbRecordedEvent,
} from '@eventstore/db-client';
import { copiedFromOf, withCopiedFrom } from './copied-from.js';
import type { EventBatches, EventStore, ExactLog, StoredEvent } from './event-store.port.js';
import { isSoftDeletedMetadata } from './eventstoredb-errors.js';
import { DEFAULT_EVENTSTOREDB_TIMEOUTS } from './eventstoredb-event-store.js';
import { isAfter, isSystemEvent, toEventStoreDbPosition, toRecordedEvent } from './eventstoredb-mapping.js';
import { KEY_STREAM_PREFIX } from './eventstoredb-personal-keys.js';
import { consumeRead, ON_THE_LEADER } from './eventstoredb-read.js';
import { StreamChainCheck } from './stream-chain.js';

const PAGE = 1_000;
// Every read here is read to its end, never left early: the client's dispose() waits for each call it started to
// finish, and a call left with an unread end never does, which would hold close() for ever.
/** One append of a copy stays well under EventStoreDB's 1 MiB: a stream's run of events is cut at this size. */
const RUN_BYTES = 512 * 1024;
const RUN_EVENTS = 500;

export type EventStoreDbCopyConnection = Pick<EventStoreDBClient, 'readAll' | 'deleteStream' | 'dispose'>;

/** An event of the log, not EventStoreDB's own nor one of Chorus's keys. */
function isLogEvent(event: EventStoreDbRecordedEvent): boolean {
  return !isSystemEvent(event) && !event.streamId.startsWith(KEY_STREAM_PREFIX);
}

function toStoredEvent(event: EventStoreDbRecordedEvent): StoredEvent {
  const recorded = toRecordedEvent(event);
  // The client hands JSON over parsed: its text is written again, key order kept.
  return {
    position: recorded.position,
    streamId: recorded.streamId,
    revision: recorded.revision,
    id: recorded.id,
    type: recorded.type,
    data: JSON.stringify(recorded.data),
    metadata: JSON.stringify(recorded.metadata),
    recordedAt: recorded.recordedAt,
    hash: null,
  };
}

/** Consecutive events of one stream, one append each, within EventStoreDB's size. */
function runsOf(batch: readonly StoredEvent[]): StoredEvent[][] {
  const runs: StoredEvent[][] = [];
  let bytes = 0;
  for (const event of batch) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    const size = event.data.length + event.metadata.length + 2 * event.type.length;
    const continues =
      run !== undefined &&
      last?.streamId === event.streamId &&
      event.revision === last.revision + 1n &&
      run.length < RUN_EVENTS &&
      bytes + size <= RUN_BYTES;
    if (continues) {
      run.push(event);
      bytes += size;
    } else {
      runs.push([event]);
      bytes = size;
    }
  }
  return runs;
}

/** The log of an EventStoreDB database, as a copy reads it and writes it. `store` appends: its idempotency holds. */
export class EventStoreDbCopies implements ExactLog {
  static connect(connectionString: string, store: EventStore): EventStoreDbCopies {
    return new EventStoreDbCopies(EventStoreDBClient.connectionString(connectionString), store);
  }

  constructor(
    private readonly client: EventStoreDbCopyConnection,
    private readonly store: EventStore,
    private readonly readMs = DEFAULT_EVENTSTOREDB_TIMEOUTS.readMs,
  ) {}

  async exportEvents(afterPosition: bigint, maxCount: number): Promise<StoredEvent[]> {
    const events: StoredEvent[] = [];
    if (maxCount <= 0) return events;
    await this.walk(afterPosition, (event) => {
      if (isLogEvent(event)) events.push(toStoredEvent(event));
      return events.length < maxCount;
    });
    return events;
  }

  /** The event of the log at that position of $all, or undefined. */
  async eventAt(position: bigint): Promise<StoredEvent | undefined> {
    let found: StoredEvent | undefined;
    const read = this.client.readAll({
      direction: FORWARDS,
      fromPosition: toEventStoreDbPosition(position),
      maxCount: 1,
      ...ON_THE_LEADER,
    });
    await consumeRead(read, this.bounds('a read of $all'), (resolved: AllStreamResolvedEvent) => {
      const event = resolved.event;
      if (event !== undefined && event.position.commit === position && isLogEvent(event)) found = toStoredEvent(event);
      return true;
    });
    return found;
  }

  /** The log's last event, as stored (a copied one with its note). */
  async lastEvent(): Promise<StoredEvent | undefined> {
    let before: Position | typeof END = END;
    for (;;) {
      let received = 0;
      let found: StoredEvent | undefined;
      const read = this.client.readAll({
        direction: BACKWARDS,
        fromPosition: before,
        maxCount: PAGE,
        ...ON_THE_LEADER,
      });
      await consumeRead(read, this.bounds('a read of the end of $all'), (resolved: AllStreamResolvedEvent) => {
        received += 1;
        const event = resolved.event;
        if (event === undefined || found !== undefined) return true;
        before = event.position;
        if (isLogEvent(event)) found = toStoredEvent(event);
        return true;
      });
      if (found !== undefined || received < PAGE) return found;
    }
  }

  /** The source position of the last event a copy wrote here; undefined when the log is empty. */
  async copiedUpTo(): Promise<bigint | undefined> {
    const last = await this.lastEvent();
    if (last === undefined) return undefined;
    const copied = copiedFromOf(JSON.parse(last.metadata));
    if (copied === undefined)
      throw new RangeError(`The event at position ${last.position} was not copied here: this log is another one`);
    return BigInt(copied.position);
  }

  /**
   * Appends each event to its stream at its revision, its position and time in its metadata, in order: a copy stopped
   * at any moment holds a prefix of its source. Sent again, an event already there is answered as written (its id at
   * its revision), never doubled.
   */
  async importEvents(batches: EventBatches, onImported?: (events: number) => void): Promise<void> {
    let after = await this.copiedUpTo();
    for await (const batch of batches) {
      for (const run of runsOf(batch)) {
        for (const event of run) {
          if (after !== undefined && event.position <= after)
            throw new RangeError(`Event ${event.id} at position ${event.position} is not after the copy's last event`);
          after = event.position;
        }
        const first = run[0] as StoredEvent;
        await this.store.append(
          first.streamId,
          run.map((event) => ({
            id: event.id,
            type: event.type,
            data: JSON.parse(event.data) as unknown,
            metadata: withCopiedFrom(JSON.parse(event.metadata), event.position, event.recordedAt),
          })),
          first.revision === 0n ? 'no_stream' : first.revision - 1n,
        );
      }
      onImported?.(batch.length);
    }
  }

  /** Streams deleted on the server, soft or for good: read from their metadata and tombstones across $all. */
  async deletedStreams(): Promise<string[]> {
    const deleted = new Map<string, boolean>();
    await this.walk(0n, (event) => {
      if (event.type === '$metadata' && event.streamId.startsWith('$$'))
        deleted.set(event.streamId.slice(2), isSoftDeletedMetadata(event.data));
      else if (event.type === '$streamDeleted') deleted.set(event.streamId, true);
      return true;
    });
    return [...deleted]
      .filter(([streamId, gone]) => gone && !streamId.startsWith('$') && !streamId.startsWith(KEY_STREAM_PREFIX))
      .map(([streamId]) => streamId)
      .sort();
  }

  /** Soft deletes, as an operator's delete on the server: the events stay in $all, the stream reads as deleted. */
  async markDeleted(streamIds: readonly string[]): Promise<void> {
    for (const streamId of streamIds) {
      try {
        await this.client.deleteStream(streamId, { expectedRevision: ANY, ...ON_THE_LEADER });
      } catch (error) {
        // Tombstoned already: deleted for good.
        if (!(error instanceof StreamDeletedError)) throw error;
      }
    }
  }

  /** Every stream's chain walked across $all, to the first break (store:verify on EventStoreDB). */
  async verifyStreams(): Promise<StreamChainCheck> {
    const check = new StreamChainCheck();
    await this.walk(0n, (event) => {
      if (!isLogEvent(event)) return true;
      const metadata: unknown = event.metadata;
      return check.next({
        position: toRecordedEvent(event).position,
        streamId: event.streamId,
        revision: event.revision,
        id: event.id,
        type: event.type,
        data: event.data,
        metadata:
          metadata !== null && typeof metadata === 'object' && !(metadata instanceof Uint8Array)
            ? (metadata as Record<string, unknown>)
            : {},
      });
    });
    return check;
  }

  async countEvents(): Promise<number> {
    let count = 0;
    await this.walk(0n, (event) => {
      if (isLogEvent(event)) count += 1;
      return true;
    });
    return count;
  }

  close(): Promise<void> {
    return this.client.dispose();
  }

  /** Every record of $all after `after` (0: from the start), system ones included, until `visit` answers false. */
  private async walk(after: bigint, visit: (event: EventStoreDbRecordedEvent) => boolean): Promise<void> {
    let last: Position | undefined = after === 0n ? undefined : toEventStoreDbPosition(after);
    for (;;) {
      let received = 0;
      let going = true;
      const read = this.client.readAll({
        direction: FORWARDS,
        fromPosition: last ?? START,
        maxCount: PAGE,
        ...ON_THE_LEADER,
      });
      await consumeRead(read, this.bounds('a read of $all'), (resolved: AllStreamResolvedEvent) => {
        received += 1;
        const event = resolved.event;
        // Reads of $all start AT the position given: the event there was visited already.
        if (!going || event === undefined || !isAfter(event.position, last)) return true;
        last = event.position;
        going = visit(event);
        return true;
      });
      if (!going || received < PAGE) return;
    }
  }

  private bounds(operation: string) {
    return { operation, timeoutMs: this.readMs };
  }
}
