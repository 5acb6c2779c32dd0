import type pg from 'pg';
import { StreamDeletedError, type AppendResult, type ExpectedRevision } from './event-store.port.js';
import { replayedAppendResult, type StoredEventRef } from './idempotent-replay.js';
import type { SerializedEvent } from './request-validation.js';
import { conflict, expectedRevisionHolds } from './expected-revision.js';

export const APPENDED_CHANNEL = 'chorus_events_appended';

export type PendingAppend = {
  streamId: string;
  events: readonly SerializedEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
};

// One statement, so one transaction: chorus_append is migration 2 of postgres-schema.ts.
const APPEND_BATCH = 'SELECT chorus_append($1::jsonb, $2::timestamptz) AS results';

const STORED_FROM = `SELECT event_id AS id, revision::text, position::text FROM events
  WHERE stream_id = $1 AND revision >= $2 ORDER BY events.revision LIMIT $3`;

/** A batch is one JSON parameter: 500 appends of up to 1 MiB each would make one of half a gigabyte. */
const MAX_BATCH_CHARACTERS = 16 * 1024 * 1024;

type BatchResult =
  | { r: 'ok'; next: string; position: string }
  | { r: 'deleted' }
  | { r: 'check'; head: string | null; first: string | null };

/**
 * Each transaction takes the log lock before it reads the last position, so positions follow commit order
 * without gaps (a reader never sees N+1 before N) and each append's check and insert are one step.
 * One call of chorus_append per batch: a round trip per append inside the lock held every other writer back.
 */
export class PostgresGroupCommit {
  private queue: PendingAppend[] = [];
  private draining: Promise<void> | undefined;
  private readonly stats = { commits: 0, writes: 0 };

  constructor(
    private readonly pool: pg.Pool,
    private readonly recordedAt: () => string,
    private readonly onCommitted: () => void,
    private readonly maxWritesPerCommit = 500,
  ) {}

  submit(append: Omit<PendingAppend, 'resolve' | 'reject'>): Promise<AppendResult> {
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ ...append, resolve, reject });
      // Started after the current task's other appends have queued: they share the first commit.
      this.draining ??= Promise.resolve().then(() => this.drain());
    });
  }

  async flush(): Promise<void> {
    while (this.draining !== undefined) await this.draining;
  }

  currentStats(): { commits: number; writes: number } {
    return { ...this.stats };
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.commitBatch(this.queue.splice(0, this.nextBatchSize()));
    } finally {
      this.draining = undefined;
    }
  }

  private nextBatchSize(): number {
    let characters = 0;
    for (const [index, pending] of this.queue.entries()) {
      if (index >= this.maxWritesPerCommit) return index;
      for (const event of pending.events)
        characters += event.id.length + event.type.length + event.data.length + event.metadata.length;
      if (characters > MAX_BATCH_CHARACTERS && index > 0) return index;
    }
    return this.queue.length;
  }

  private async commitBatch(batch: readonly PendingAppend[]): Promise<void> {
    let results: BatchResult[];
    try {
      const appends = batch.map((pending) => ({
        s: pending.streamId,
        x: typeof pending.expected === 'bigint' ? pending.expected.toString() : pending.expected,
        e: pending.events.map((event) => ({ i: event.id, t: event.type, d: event.data, m: event.metadata })),
      }));
      const { rows } = await this.pool.query<{ results: BatchResult[] }>(APPEND_BATCH, [
        JSON.stringify(appends),
        this.recordedAt(),
      ]);
      results = rows[0]?.results ?? [];
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    const stored = results.filter((result) => result.r === 'ok').length;
    if (stored > 0) {
      this.stats.commits += 1;
      this.stats.writes += stored;
      this.onCommitted();
    }
    await Promise.all(batch.map(async (pending, index) => this.settle(pending, results[index])));
  }

  private async settle(pending: PendingAppend, result: BatchResult | undefined): Promise<void> {
    try {
      if (result === undefined)
        throw new Error(`chorus_append answered no result for an append to ${pending.streamId}`);
      if (result.r === 'ok')
        return pending.resolve({ nextExpectedRevision: BigInt(result.next), position: BigInt(result.position) });
      if (result.r === 'deleted') throw new StreamDeletedError(pending.streamId);
      const { streamId, expected } = pending;
      const current = result.head === null ? null : BigInt(result.head);
      if (expected === 'no_stream' || typeof expected === 'bigint') {
        // A repeat of an append with an exact revision finds the stream moved on, its ids where they were put.
        if (!expectedRevisionHolds(expected, current))
          return pending.resolve(
            await this.replayOrConflict(pending, expected === 'no_stream' ? 0n : expected + 1n, current),
          );
      } else {
        // 'any' and 'stream_exists' say nothing of where a repeat would sit: wherever its first id is stored.
        if (result.first !== null)
          return pending.resolve(await this.replayOrConflict(pending, BigInt(result.first), current));
        if (!expectedRevisionHolds(expected, current)) throw conflict(streamId, expected, current);
      }
      // An id of this append is already stored elsewhere in the stream: not a repeat, so a conflict.
      throw conflict(streamId, expected, current);
    } catch (error) {
      pending.reject(error);
    }
  }

  /** Stored events never change: read after the commit, they decide a repeat as they would have inside it. */
  private async replayOrConflict(pending: PendingAppend, from: bigint, current: bigint | null): Promise<AppendResult> {
    const { rows } = await this.pool.query<{ id: string; revision: string; position: string }>(STORED_FROM, [
      pending.streamId,
      from.toString(),
      pending.events.length,
    ]);
    const stored: StoredEventRef[] = rows.map((row) => ({
      id: row.id,
      revision: BigInt(row.revision),
      position: BigInt(row.position),
    }));
    const replay = replayedAppendResult(
      pending.events.map((event) => event.id),
      stored,
      from,
    );
    if (replay === undefined) throw conflict(pending.streamId, pending.expected, current);
    return replay;
  }
}
