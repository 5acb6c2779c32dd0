import type pg from 'pg';
import { StreamDeletedError, WrongExpectedRevisionError, type AppendResult, type ExpectedRevision } from './event-store.port.js';
import { replayedAppendResult, type StoredEventRef } from './idempotent-replay.js';
import { LOG_LOCK_KEY } from './postgres-schema.js';
import type { SerializedEvent } from './request-validation.js';

/** The channel an append's commit notifies; live subscriptions of every node LISTEN on it. */
export const APPENDED_CHANNEL = 'chorus_events_appended';

export type PendingAppend = {
  streamId: string;
  events: readonly SerializedEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
};

type Outcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };

const BEGIN_AND_LOCK = `BEGIN; SELECT pg_advisory_xact_lock(${LOG_LOCK_KEY}); SELECT coalesce(max(position), 0)::text AS head FROM events`;
const NOTIFY_AND_COMMIT = `NOTIFY ${APPENDED_CHANNEL}; COMMIT`;

const STREAM_CHECK = `SELECT (SELECT max(revision)::text FROM events WHERE stream_id = $1) AS head,
  EXISTS (SELECT 1 FROM deleted_streams WHERE stream_id = $1) AS deleted,
  (SELECT revision::text FROM events WHERE stream_id = $1 AND event_id = $2) AS first_at,
  EXISTS (SELECT 1 FROM events WHERE stream_id = $1 AND event_id = ANY($3::text[])) AS any_stored`;

const STORED_FROM = `SELECT event_id AS id, revision::text, position::text FROM events
  WHERE stream_id = $1 AND revision >= $2 ORDER BY events.revision LIMIT $3`;

// One statement per append, whatever its size: the rows come as arrays, positions and revisions from their ordinality.
const INSERT = `INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at)
  SELECT $1::bigint + o, $2, $3::bigint + o, e, t, d, m, $8::timestamptz
  FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS x(e, t, d, m, o)`;

/**
 * Group commit on PostgreSQL: the appends that arrive while a transaction is in flight share the next one.
 * Each transaction first takes the log lock (an advisory lock held to its end), then reads the last position:
 * positions are handed out in the order transactions commit, so a reader never sees position N+1 before N,
 * and there are no gaps (an aborted transaction took none that anyone saw). The lock also makes each
 * append's expected-revision check and its insert one step; unique (stream_id, revision) backs it.
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
      while (this.queue.length > 0) await this.commitBatch(this.queue.splice(0, this.maxWritesPerCommit));
    } finally {
      this.draining = undefined;
    }
  }

  private async commitBatch(batch: readonly PendingAppend[]): Promise<void> {
    let outcomes: Outcome[];
    let client: pg.PoolClient | undefined;
    try {
      client = await this.pool.connect();
      outcomes = await this.runInTransaction(client, batch);
    } catch (error) {
      // The transaction failed as a whole (or its commit's outcome is unknown): every caller is told.
      client?.release(true);
      for (const pending of batch) pending.reject(error);
      return;
    }
    client.release();
    for (const [index, pending] of batch.entries()) {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) pending.resolve(outcome.result);
      else pending.reject(outcome.error);
    }
  }

  private async runInTransaction(client: pg.PoolClient, batch: readonly PendingAppend[]): Promise<Outcome[]> {
    const opened = (await client.query(BEGIN_AND_LOCK)) as unknown as pg.QueryResult<{ head: string }>[];
    let position = BigInt(opened[2]?.rows[0]?.head ?? '0');
    const recordedAt = this.recordedAt();
    const outcomes: Outcome[] = [];
    let stored = 0;
    try {
      for (const pending of batch) {
        try {
          const result = await this.write(client, pending, position, recordedAt);
          if (result.position > position) {
            position = result.position;
            stored += 1;
          }
          outcomes.push({ ok: true, result });
        } catch (error) {
          if (!isRefusal(error)) throw error;
          outcomes.push({ ok: false, error });
        }
      }
      await client.query(stored > 0 ? NOTIFY_AND_COMMIT : 'ROLLBACK');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    if (stored > 0) {
      this.stats.commits += 1;
      this.stats.writes += stored;
      this.onCommitted();
    }
    return outcomes;
  }

  /** One append inside the transaction: checked, then inserted, or replayed, or refused (nothing written). */
  private async write(client: pg.PoolClient, pending: PendingAppend, lastPosition: bigint, recordedAt: string): Promise<AppendResult> {
    const { streamId, events, expected } = pending;
    const ids = events.map((event) => event.id);
    const { rows } = await client.query<CheckRow>(STREAM_CHECK, [streamId, ids[0], ids]);
    const check = rows[0] as CheckRow;
    if (check.deleted) throw new StreamDeletedError(streamId);
    const current = check.head === null ? null : BigInt(check.head);

    if (expected === 'no_stream' || typeof expected === 'bigint') {
      // A repeat of an append with an exact revision finds the stream moved on, its ids where they were put.
      if (!expectedRevisionHolds(expected, current)) {
        return this.replayOrConflict(client, pending, expected === 'no_stream' ? 0n : expected + 1n, current);
      }
    } else {
      // 'any' and 'stream_exists' say nothing of where a repeat would sit: wherever its first id is stored.
      if (check.first_at !== null) return this.replayOrConflict(client, pending, BigInt(check.first_at), current);
      if (!expectedRevisionHolds(expected, current)) throw conflict(streamId, expected, current);
    }
    // An id of this append is already stored elsewhere in the stream: not a repeat, so a conflict.
    if (check.any_stored) throw conflict(streamId, expected, current);

    const head = current ?? -1n;
    await client.query(INSERT, [
      lastPosition.toString(),
      streamId,
      head.toString(),
      ids,
      events.map((event) => event.type),
      events.map((event) => event.data),
      events.map((event) => event.metadata),
      recordedAt,
    ]);
    const count = BigInt(events.length);
    return { nextExpectedRevision: head + count, position: lastPosition + count };
  }

  private async replayOrConflict(client: pg.PoolClient, pending: PendingAppend, from: bigint, current: bigint | null): Promise<AppendResult> {
    const { rows } = await client.query<{ id: string; revision: string; position: string }>(STORED_FROM, [
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

type CheckRow = { head: string | null; deleted: boolean; first_at: string | null; any_stored: boolean };

function isRefusal(error: unknown): boolean {
  return error instanceof WrongExpectedRevisionError || error instanceof StreamDeletedError;
}

function expectedRevisionHolds(expected: ExpectedRevision, current: bigint | null): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === null;
  if (expected === 'stream_exists') return current !== null;
  return current === expected;
}

function conflict(streamId: string, expected: ExpectedRevision, current: bigint | null): WrongExpectedRevisionError {
  return new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
}
