import type pg from 'pg';
import { StreamDeletedError, type AppendResult, type ExpectedRevision } from './event-store.port.js';
import { replayedAppendResult, type StoredEventRef } from './idempotent-replay.js';
import type { SerializedEvent } from './request-validation.js';
import { conflict, expectedRevisionHolds } from './expected-revision.js';

export const APPENDED_CHANNEL = 'chorus_events_appended';

const toRevision = (head: string | null | undefined): bigint | null =>
  head === null || head === undefined ? null : BigInt(head);

/** One stream's part of a pending append. */
export type PendingPart = { streamId: string; events: readonly SerializedEvent[]; expected: ExpectedRevision };

/** One caller's append: one part, or one command's parts on several streams, all written or none. */
export type PendingAppend = {
  parts: readonly PendingPart[];
  resolve: (results: AppendResult[]) => void;
  reject: (error: unknown) => void;
};

// One statement, so one transaction: chorus_append_groups is migration 4 of postgres-schema.ts.
const APPEND_BATCH = 'SELECT chorus_append_groups($1::jsonb, $2::timestamptz) AS results';

const STORED_FROM = `SELECT event_id AS id, revision::text, position::text FROM events
  WHERE stream_id = $1 AND revision >= $2 ORDER BY events.revision LIMIT $3`;

/** A batch is one JSON parameter: 500 appends of up to 1 MiB each would make one of half a gigabyte. */
const MAX_BATCH_CHARACTERS = 16 * 1024 * 1024;

/** `passed`: this part's own check held (another part of its group failed). */
type PartCheck = { head: string | null; first: string | null; passed: boolean };

type BatchResult =
  | { r: 'ok'; parts: Array<{ next: string; position: string }> }
  | { r: 'deleted'; s: string }
  | { r: 'check'; parts: PartCheck[] };

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

  submit(parts: readonly PendingPart[]): Promise<AppendResult[]> {
    return new Promise<AppendResult[]>((resolve, reject) => {
      this.queue.push({ parts, resolve, reject });
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
      for (const part of pending.parts)
        for (const event of part.events)
          characters += event.id.length + event.type.length + event.data.length + event.metadata.length;
      if (characters > MAX_BATCH_CHARACTERS && index > 0) return index;
    }
    return this.queue.length;
  }

  private async commitBatch(batch: readonly PendingAppend[]): Promise<void> {
    let results: BatchResult[];
    try {
      const appends = batch.map((pending) =>
        pending.parts.map((part) => ({
          s: part.streamId,
          x: typeof part.expected === 'bigint' ? part.expected.toString() : part.expected,
          e: part.events.map((event) => ({ i: event.id, t: event.type, d: event.data, m: event.metadata })),
        })),
      );
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
      if (result === undefined) throw new Error('chorus_append_groups answered no result for an append');
      if (result.r === 'ok')
        return pending.resolve(
          result.parts.map((part) => ({ nextExpectedRevision: BigInt(part.next), position: BigInt(part.position) })),
        );
      if (result.r === 'deleted') throw new StreamDeletedError(result.s);
      // Nothing of the group was written: a repeat of every part answers what was stored, anything else conflicts.
      const checks = pending.parts.map((part, index) => ({ part, check: result.parts[index] }));
      const failed = checks.filter(({ check }) => check?.passed !== true);
      const replays: AppendResult[] = [];
      for (const { part, check } of failed) replays.push(await this.replayOf(part, check));
      // A part that held beside repeats (never on this store, whose groups are written whole) is not a repeat.
      const held = checks.find(({ check }) => check?.passed === true);
      if (held !== undefined) throw conflict(held.part.streamId, held.part.expected, toRevision(held.check?.head));
      return pending.resolve(replays);
    } catch (error) {
      pending.reject(error);
    }
  }

  /** A part whose check failed: a repeat of an append stored before, or a conflict. */
  private async replayOf(part: PendingPart, check: PartCheck | undefined): Promise<AppendResult> {
    const { streamId, expected } = part;
    const current = toRevision(check?.head);
    if (expected === 'no_stream' || typeof expected === 'bigint') {
      // A repeat of an append with an exact revision finds the stream moved on, its ids where they were put.
      if (!expectedRevisionHolds(expected, current))
        return this.replayOrConflict(part, expected === 'no_stream' ? 0n : expected + 1n, current);
    } else {
      // 'any' and 'stream_exists' say nothing of where a repeat would sit: wherever its first id is stored.
      if (check?.first !== null && check?.first !== undefined)
        return this.replayOrConflict(part, BigInt(check.first), current);
      if (!expectedRevisionHolds(expected, current)) throw conflict(streamId, expected, current);
    }
    // An id of this append is already stored elsewhere in the stream: not a repeat, so a conflict.
    throw conflict(streamId, expected, current);
  }

  /** Stored events never change: read after the commit, they decide a repeat as they would have inside it. */
  private async replayOrConflict(part: PendingPart, from: bigint, current: bigint | null): Promise<AppendResult> {
    const { rows } = await this.pool.query<{ id: string; revision: string; position: string }>(STORED_FROM, [
      part.streamId,
      from.toString(),
      part.events.length,
    ]);
    const stored: StoredEventRef[] = rows.map((row) => ({
      id: row.id,
      revision: BigInt(row.revision),
      position: BigInt(row.position),
    }));
    const replay = replayedAppendResult(
      part.events.map((event) => event.id),
      stored,
      from,
    );
    if (replay === undefined) throw conflict(part.streamId, part.expected, current);
    return replay;
  }
}
