import type pg from 'pg';
import { StreamDeletedError, type AppendResult, type ExpectedRevision } from './event-store.port.js';
import { replayedAppendResult, type StoredEventRef } from './idempotent-replay.js';
import type { SerializedEvent } from './request-validation.js';
import { conflict, expectedRevisionHolds } from './expected-revision.js';

/** The channel an append's commit notifies; live subscriptions of every node LISTEN on it. */
export const APPENDED_CHANNEL = 'chorus_events_appended';

export type PendingAppend = {
  streamId: string;
  events: readonly SerializedEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
};

// The whole group commit, one statement and so one transaction: chorus_append (postgres-schema.ts, migration 2).
const APPEND_BATCH = 'SELECT chorus_append($1::jsonb, $2::timestamptz) AS results';

const STORED_FROM = `SELECT event_id AS id, revision::text, position::text FROM events
  WHERE stream_id = $1 AND revision >= $2 ORDER BY events.revision LIMIT $3`;

/**
 * A batch travels as one JSON parameter: appends of up to 1 MiB each, 500 of them, would make one of half a
 * gigabyte. Past this many characters the rest waits for the next commit.
 */
const MAX_BATCH_CHARACTERS = 16 * 1024 * 1024;

/** chorus_append's answer for one append: stored, refused (deleted stream), or left to a check by reads. */
type BatchResult = { r: 'ok'; next: string; position: string } | { r: 'deleted' } | { r: 'check'; head: string | null; first: string | null };

/**
 * Group commit on PostgreSQL: the appends that arrive while a transaction is in flight share the next one.
 * Each transaction first takes the log lock (an advisory lock held to its end), then reads the last position:
 * positions are handed out in the order transactions commit, so a reader never sees position N+1 before N,
 * and there are no gaps (an aborted transaction took none that anyone saw). The lock also makes each
 * append's expected-revision check and its insert one step; unique (stream_id, revision) backs it. The whole
 * transaction is one call of chorus_append: one round trip for a batch, where a check and an insert per
 * append, each a round trip inside the lock, held every other writer back.
 */
export class PostgresGroupCommit {
  private queue: PendingAppend[] = [];
  private draining: Promise<void> | undefined;
  private readonly stats = { commits: 0, writes: 0 };

  constructor(
    private readonly pool: pg.Pool,
    private readonly recordedAt: () => string,
    /** Called after each commit that stored something. */
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

  /** Resolves once everything queued so far is committed or refused. */
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

  /** How many queued appends the next commit takes: up to maxWritesPerCommit, and (one at least) up to MAX_BATCH_CHARACTERS. */
  private nextBatchSize(): number {
    let characters = 0;
    for (const [index, pending] of this.queue.entries()) {
      if (index >= this.maxWritesPerCommit) return index;
      for (const event of pending.events) characters += event.id.length + event.type.length + event.data.length + event.metadata.length;
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
      const { rows } = await this.pool.query<{ results: BatchResult[] }>(APPEND_BATCH, [JSON.stringify(appends), this.recordedAt()]);
      results = rows[0]?.results ?? [];
    } catch (error) {
      // The transaction failed as a whole (or its commit's outcome is unknown): every caller is told.
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

  /** One append's outcome: its result, its refusal, or (expected revision not holding, ids stored) a replay or a conflict. */
  private async settle(pending: PendingAppend, result: BatchResult | undefined): Promise<void> {
    try {
      if (result === undefined) throw new Error(`chorus_append answered no result for an append to ${pending.streamId}`);
      if (result.r === 'ok') return pending.resolve({ nextExpectedRevision: BigInt(result.next), position: BigInt(result.position) });
      if (result.r === 'deleted') throw new StreamDeletedError(pending.streamId);
      const { streamId, expected } = pending;
      const current = result.head === null ? null : BigInt(result.head);
      if (expected === 'no_stream' || typeof expected === 'bigint') {
        // A repeat of an append with an exact revision finds the stream moved on, its ids where they were put.
        if (!expectedRevisionHolds(expected, current)) return pending.resolve(await this.replayOrConflict(pending, expected === 'no_stream' ? 0n : expected + 1n, current));
      } else {
        // 'any' and 'stream_exists' say nothing of where a repeat would sit: wherever its first id is stored.
        if (result.first !== null) return pending.resolve(await this.replayOrConflict(pending, BigInt(result.first), current));
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
    const stored: StoredEventRef[] = rows.map((row) => ({ id: row.id, revision: BigInt(row.revision), position: BigInt(row.position) }));
    const replay = replayedAppendResult(
      pending.events.map((event) => event.id),
      stored,
      from,
    );
    if (replay === undefined) throw conflict(pending.streamId, pending.expected, current);
    return replay;
  }
}
