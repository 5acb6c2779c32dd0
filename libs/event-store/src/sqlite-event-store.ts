// One adapter of the EventStore port: its statements, group commit and subscriptions share one database handle.
import Database from 'better-sqlite3';
import {
  EventStoreClosedError,
  StreamDeletedError,
  type AppendResult,
  type ChainedLog,
  type CommitStats,
  type EnvelopePart,
  type EventStore,
  type EventToAppend,
  type ExactLog,
  type EventBatches,
  type StoredEvent,
  type ExpectedRevision,
  type LogEvent,
  type ReadAllOptions,
  type ReadLogByStreamOptions,
  type ReadLogOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type StreamAppend,
  type SubscribeToAllOptions,
  type EventRows,
  type Subscription,
} from './event-store.port.js';
import { replayedAppendResult, type StoredEventRef } from './idempotent-replay.js';
import {
  assertAppendSize,
  assertValidAppend,
  assertValidAppends,
  assertValidMaxCount,
  serializeEvents,
  type SerializedEvent,
} from './request-validation.js';
import {
  envelopeKeyOf,
  EVENT_ROW_COLUMNS,
  logReadOf,
  toRecordedEvent,
  toStoredEvent,
  type EventRow,
  type LogRead,
  type LogRow,
} from './sqlite-event-row.js';
import { LogByStream } from './sqlite-log-by-stream.js';
import { GroupCommit, type GroupCommitStats } from './sqlite-group-commit.js';
import { migrateEventStoreSchema } from './sqlite-migrations.js';
import {
  CHAINED_INSERT,
  CHAINED_INSERT_UNLESS_DELETED,
  ChainHead,
  imported,
  linked,
  SqliteChain,
} from './sqlite-chain.js';
import type { ChainedEvent } from './event-chain.js';
import { isoClock } from './iso-clock.js';
import { LimitedStatements } from './sqlite-limited-statements.js';
import { SqliteEventRows } from './sqlite-event-rows.js';
import { beginImport, finishImport, importUnfinished } from './sqlite-import.js';
import { UnfinishedImport } from './unfinished-import.js';
import { StreamHeads } from './sqlite-stream-heads.js';
import { SqliteFollowers } from './sqlite-followers.js';
import { WalSync, type SyncFile, type SyncFileNow } from './sqlite-wal-sync.js';
import { conflict, expectedRevisionHolds } from './expected-revision.js';

export type SqliteEventStoreOptions = {
  /** Created, with its schema, when missing. */
  file: string;
  now?: () => Date;
  /** How often live subscriptions look for appends committed by other processes on the same file. */
  pollIntervalMs?: number;
  /** How long a write waits for another process's write lock before failing. */
  busyTimeoutMs?: number;
  traceStatements?: (sql: string) => void;
  /** How the WAL is synced (Node's fdatasync); a test holds it back to see who waits for it. */
  syncFile?: SyncFile;
  /** The same on the event loop (Node's fdatasyncSync), for a writer alone. */
  syncFileNow?: SyncFileNow;
  /** Opened by an import (store:copy, store:restore), which may go on with one that has not finished. */
  importing?: boolean;
};

const LAST_REVISION = 9_223_372_036_854_775_807n;

/**
 * One SQLite file in WAL mode, written through one connection with group commit, each commit synced off the event loop
 * before it is acknowledged (README.md says why).
 */
export class SqliteEventStore implements EventStore, ExactLog, ChainedLog {
  readonly appendsAcrossStreamsAtomically = true;
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly groupCommit: GroupCommit;
  private readonly walSync: WalSync;
  private readonly followers: SqliteFollowers;
  /**
   * The last revisions of the streams appended to, while no other connection commits: an append's check without a read.
   */
  private readonly heads: StreamHeads;
  private readonly recordedAtNow: () => string;
  private readonly identity: string;
  private readonly statements;
  private readonly chain: SqliteChain;
  private readonly chainHead: ChainHead;
  private readonly rows: SqliteEventRows;
  /** By the envelope parts they return: at most eight entries each. */
  private readonly logReads = new Map<string, { read: LogRead; page: LimitedStatements }>();
  private readonly logByStreamReads = new Map<string, LogByStream>();

  static open(options: SqliteEventStoreOptions): SqliteEventStore {
    const db = new Database(options.file, {
      timeout: options.busyTimeoutMs ?? 5_000,
      ...(options.traceStatements === undefined
        ? {}
        : { verbose: (sql: unknown) => options.traceStatements?.(String(sql)) }),
    });
    try {
      const journalMode = db.pragma('journal_mode = WAL', { simple: true });
      if (journalMode !== 'wal')
        throw new Error(`${options.file}: SQLite could not use WAL mode here (got ${String(journalMode)})`);
      db.pragma('synchronous = FULL');
      migrateEventStoreSchema(db, undefined, options.now);
      if (options.importing !== true && importUnfinished(db)) throw new UnfinishedImport(options.file);
      // Commits write the WAL without syncing it: WalSync syncs it off the event loop before anyone is answered, so an
      // acknowledged append survives a power loss as with FULL, and the loop runs while the disk works.
      db.pragma('synchronous = NORMAL');
      db.defaultSafeIntegers(true);
      return new SqliteEventStore(db, options);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  private constructor(
    private readonly db: Database.Database,
    options: SqliteEventStoreOptions,
  ) {
    const now = options.now;
    this.recordedAtNow = now === undefined ? isoClock() : () => now().toISOString();
    this.heads = new StreamHeads(db);
    this.chain = new SqliteChain(db);
    this.rows = new SqliteEventRows(db);
    this.chainHead = new ChainHead(db);
    this.groupCommit = new GroupCommit(
      db,
      () => this.chainHead.committed(this.groupCommit.currentTransaction()),
      () => {
        this.heads.forget();
        this.chainHead.forget();
      },
      // A lone writer's sync on the loop: the thread pool's round trip would cost it more than the loop's wait.
      (settle, here) => this.walSync.afterNextSync(settle, here),
      () => this.walSync.syncing(),
    );
    this.statements = {
      streamHead: db
        .prepare(
          'SELECT max(revision), (SELECT 1 FROM deleted_streams WHERE stream_id = ?) FROM events WHERE stream_id = ?',
        )
        .raw(true),
      revisionOfEvent: db.prepare('SELECT revision FROM events WHERE stream_id = ? AND event_id = ?').pluck(),
      storedFrom: new LimitedStatements(
        db,
        'SELECT event_id AS id, revision, position FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision',
        false,
      ),
      insert: db.prepare(CHAINED_INSERT),
      insertUnlessDeleted: db.prepare(CHAINED_INSERT_UNLESS_DELETED),
      // One statement when the stream has events: the deleted mark comes as a last column.
      streamForwards: new LimitedStatements(
        db,
        `SELECT ${EVENT_ROW_COLUMNS}, (SELECT 1 FROM deleted_streams WHERE stream_id = ?) FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision`,
        true,
      ),
      streamBackwards: new LimitedStatements(
        db,
        `SELECT ${EVENT_ROW_COLUMNS}, (SELECT 1 FROM deleted_streams WHERE stream_id = ?) FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC`,
        true,
      ),
      // When it finds none: whether the stream has events at all (the read began past its end), and whether it was
      // deleted.
      streamStatus: db
        .prepare(
          'SELECT EXISTS (SELECT 1 FROM events WHERE stream_id = ?), EXISTS (SELECT 1 FROM deleted_streams WHERE stream_id = ?)',
        )
        .raw(true),
      allAfter: new LimitedStatements(
        db,
        `SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE position > ? ORDER BY position`,
        true,
      ),
      headPosition: db.prepare('SELECT max(position) FROM events').pluck(),
      importAt: db.prepare(CHAINED_INSERT),
      deletedStreams: db.prepare('SELECT stream_id FROM deleted_streams ORDER BY stream_id').pluck(),
      markDeleted: db.prepare(
        'INSERT INTO deleted_streams (stream_id, deleted_at) VALUES (?, ?) ON CONFLICT (stream_id) DO NOTHING',
      ),
      countEvents: db.prepare('SELECT count(*) FROM events').pluck(),
      ping: db.prepare('SELECT 1').pluck(),
    };
    this.identity = db.prepare('SELECT id FROM store_identity').pluck().get() as string;
    this.walSync = new WalSync(
      `${db.name}-wal`,
      (exact) =>
        (exact ? undefined : this.chainHead.lastCommitted()) ??
        (this.statements.headPosition.get() as bigint | null) ??
        0n,
      () => {
        if (!this.closed) this.followers.wake();
      },
      () => this.groupCommit.syncEnded(),
      options.syncFile,
      options.syncFileNow,
    );
    this.followers = new SqliteFollowers(db, this.walSync, options.pollIntervalMs ?? 100);
  }

  append(
    streamId: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    let serialized: SerializedEvent[];
    try {
      this.assertWritable();
      assertValidAppend(streamId, events, expectedRevision);
      // Serialized now: the caller may change its objects after calling, and a bad value fails only this caller.
      serialized = serializeEvents(streamId, events);
      assertAppendSize(streamId, serialized);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const write = () => this.write(streamId, serialized, expectedRevision);
    const event = serialized.length === 1 ? serialized[0] : undefined;
    if (event === undefined) return this.groupCommit.submit(write);
    // One event is one INSERT (the rest of the write reads): SQLite undoes a failed one alone, no savepoint needed.
    return this.groupCommit.submit(write, true, () => this.writeAlone(streamId, event, expectedRevision));
  }

  appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    let parts: Array<{ streamId: string; events: SerializedEvent[]; expected: ExpectedRevision }>;
    try {
      this.assertWritable();
      assertValidAppends(appends);
      parts = appends.map(({ streamId, events, expectedRevision }) => {
        const serialized = serializeEvents(streamId, events);
        assertAppendSize(streamId, serialized);
        return { streamId, events: serialized, expected: expectedRevision };
      });
    } catch (error) {
      return Promise.reject(error as Error);
    }
    // One write in the group commit, so one savepoint: a part that throws undoes the parts before it.
    return this.groupCommit.submit(() => parts.map((part) => this.write(part.streamId, part.events, part.expected)));
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    this.assertOpen();
    assertValidMaxCount(options.maxCount);
    const rows = (
      options.direction === 'backwards'
        ? this.statements.streamBackwards.all(
            options.maxCount,
            streamId,
            streamId,
            options.fromRevision ?? LAST_REVISION,
          )
        : this.statements.streamForwards.all(options.maxCount, streamId, streamId, options.fromRevision ?? 0n)
    ) as StreamRow[];
    const first = rows[0];
    if (first === undefined) {
      const [exists, deleted] = this.statements.streamStatus.get(streamId, streamId) as [bigint, bigint];
      return exists === 1n && deleted === 0n ? { found: true, events: [] } : { found: false };
    }
    if (first[STREAM_ROW_DELETED] !== null) return { found: false };
    return { found: true, events: rows.map(toRecordedEvent) };
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    assertValidMaxCount(options.maxCount);
    return this.readPage(options.fromPosition ?? 0n, options.maxCount).map(toRecordedEvent);
  }

  async readLog<P extends EnvelopePart = never>(options: ReadLogOptions<P>): Promise<LogEvent<P>[]> {
    this.assertOpen();
    assertValidMaxCount(options.maxCount);
    const { read, page } = this.logRead(options.parts);
    return (page.all(options.maxCount, options.fromPosition ?? 0n) as LogRow[]).map(read.toEvent);
  }

  async readLogByStream<P extends EnvelopePart = never>(options: ReadLogByStreamOptions<P>): Promise<LogEvent<P>[]> {
    this.assertOpen();
    assertValidMaxCount(options.maxCount);
    return this.logByStream(options.parts).page(options);
  }

  async headPosition(): Promise<bigint | undefined> {
    this.assertOpen();
    return (this.statements.headPosition.get() as bigint | null) ?? undefined;
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    this.assertOpen();
    return this.followers.subscribe(options);
  }

  async ping(): Promise<void> {
    this.assertWritable();
    this.statements.ping.get();
  }

  async storeId(): Promise<string> {
    this.assertOpen();
    return this.identity;
  }

  async exportEvents(afterPosition: bigint, maxCount: number): Promise<StoredEvent[]> {
    this.assertOpen();
    return (this.statements.allAfter.all(maxCount, afterPosition) as EventRow[]).map(toStoredEvent);
  }

  async exportRows(
    afterPosition: bigint,
    upToPosition: bigint | undefined,
    maxCount: number,
  ): Promise<EventRows | undefined> {
    this.assertOpen();
    return this.rows.read(afterPosition, upToPosition, maxCount);
  }

  async readChain(afterPosition: bigint, maxCount: number): Promise<ChainedEvent[]> {
    this.assertOpen();
    return this.chain.read(afterPosition, maxCount);
  }

  chainNext(afterPosition: bigint, maxCount: number): Promise<{ chained: number; lastPosition: bigint | undefined }> {
    this.assertWritable();
    return this.groupCommit.submit(() => {
      // Hashes given to events at the end change what the next append links to.
      this.chainHead.forget();
      return this.chain.give(afterPosition, maxCount);
    });
  }

  async importEvents(batches: EventBatches, onImported?: (events: number) => void): Promise<void> {
    this.assertWritable();
    // The next batch is asked for before this one is written: a source on a server of its own reads it meanwhile.
    const source = (async function* () {
      yield* batches;
    })();
    let next = source.next();
    const first = await next;
    // Set while the log's unique indexes are missing (sqlite-import.ts): the heads of its streams, kept here.
    const withoutIndexes = await this.groupCommit.submit(() => beginImport(this.db, first.done !== true));
    for (let batch = first; batch.done !== true; batch = await next) {
      next = source.next();
      next.catch(() => undefined); // awaited next turn, unless this batch is refused first
      if (batch.value.length === 0) continue;
      await this.importBatch(batch.value, withoutIndexes);
      onImported?.(batch.value.length);
    }
    if (withoutIndexes !== undefined) await this.groupCommit.submit(() => finishImport(this.db));
  }

  /** `streamHeads`: every stream's head, where the log's indexes are missing; else this batch's, on its way. */
  private importBatch(events: readonly StoredEvent[], streamHeads?: Map<string, bigint>): Promise<void> {
    return this.groupCommit.submit(() => {
      let head = (this.statements.headPosition.get() as bigint | null) ?? 0n;
      const heads = streamHeads ?? new Map<string, bigint>();
      const end = this.chainHead.read(this.groupCommit.currentTransaction());
      for (const event of events) {
        if (event.position <= head)
          throw new RangeError(`Event at position ${event.position} is not after the log's head (${head})`);
        const streamHead =
          heads.get(event.streamId) ?? (streamHeads === undefined ? this.currentRevision(event.streamId) : null) ?? -1n;
        if (event.revision !== streamHead + 1n)
          throw new RangeError(
            `Stream ${event.streamId}: event at revision ${event.revision} does not follow revision ${streamHead}`,
          );
        this.statements.importAt.run(...imported(end, event));
        head = event.position;
        heads.set(event.streamId, event.revision);
      }
      this.chainHead.wrote(end, this.groupCommit.currentTransaction());
      this.heads.forget();
    });
  }

  async deletedStreams(): Promise<string[]> {
    this.assertOpen();
    return this.statements.deletedStreams.all() as string[];
  }

  async markDeleted(streamIds: readonly string[]): Promise<void> {
    this.assertWritable();
    await this.groupCommit.submit(() => {
      for (const streamId of streamIds) this.statements.markDeleted.run(streamId, this.recordedAtNow());
      this.heads.forget();
    });
  }

  async countEvents(): Promise<number> {
    this.assertOpen();
    return Number(this.statements.countEvents.get() as bigint);
  }

  groupCommitStats(): GroupCommitStats {
    return this.groupCommit.currentStats();
  }

  commitStats(): CommitStats {
    const { commits, writes } = this.groupCommit.currentStats();
    return { commits, writes };
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    this.groupCommit.flush();
    await this.walSync.drained();
    await this.followers.stopAll();
    this.db.close();
    this.walSync.close();
  }

  private write(streamId: string, events: readonly SerializedEvent[], expected: ExpectedRevision): AppendResult {
    const current = this.currentRevision(streamId);

    if (expected === 'no_stream' || typeof expected === 'bigint') {
      // A repeat of an append with an exact revision finds the stream moved on, its ids where they were put.
      if (!expectedRevisionHolds(expected, current)) {
        const replay = this.replayFrom(streamId, events, expected === 'no_stream' ? 0n : expected + 1n);
        if (replay === undefined) throw conflict(streamId, expected, current);
        return replay;
      }
    } else {
      // 'any' and 'stream_exists' say nothing of where a repeat would sit: wherever its first id is stored.
      const firstStoredAt = this.statements.revisionOfEvent.get(streamId, events[0]?.id) as bigint | undefined;
      if (firstStoredAt !== undefined) {
        const replay = this.replayFrom(streamId, events, firstStoredAt);
        if (replay === undefined) throw conflict(streamId, expected, current);
        return replay;
      }
      if (!expectedRevisionHolds(expected, current)) throw conflict(streamId, expected, current);
    }

    const recordedAt = this.recordedAtNow();
    let revision = current ?? -1n;
    let position = 0n;
    // Under the write lock: the end as this transaction sees it, read once for the events of this write.
    const end = this.chainHead.read(this.groupCommit.currentTransaction());
    for (const event of events) {
      revision += 1n;
      try {
        position = this.statements.insert.run(...linked(end, streamId, revision, event, recordedAt))
          .lastInsertRowid as bigint;
      } catch (error) {
        // An id of this append is already stored elsewhere in the stream: not a repeat, so a conflict.
        if (isUniqueViolation(error)) throw conflict(streamId, expected, current);
        throw error;
      }
    }
    this.chainHead.wrote(end, this.groupCommit.currentTransaction());
    this.heads.appended(streamId, revision);
    return { nextExpectedRevision: revision, position };
  }

  /**
   * A one-event append as ONE autocommit statement, when the stream's head is remembered. The insert is the check:
   * revisions have no gaps, so the next one is free exactly when no one appended since, else the unique indexes
   * refuse it. Undefined, having stored nothing, when it cannot tell: `write` then checks and tells why.
   */
  private writeAlone(streamId: string, event: SerializedEvent, expected: ExpectedRevision): AppendResult | undefined {
    const stored = this.heads.lastStored(streamId);
    if (stored === undefined || !(expected === stored || expected === 'any' || expected === 'stream_exists'))
      return undefined;
    const revision = stored + 1n;
    // Possibly stale too: another process's append took the position, and the insert is refused.
    const end = this.chainHead.remembered();
    let inserted: Database.RunResult;
    try {
      inserted = this.statements.insertUnlessDeleted.run(
        ...linked(end, streamId, revision, event, this.recordedAtNow()),
        streamId,
      );
    } catch (error) {
      this.chainHead.forget();
      // A revision or id taken, or the position: another process appended since.
      if (isUniqueViolation(error) || (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
        return undefined;
      throw error;
    }
    if (inserted.changes === 0) return undefined;
    this.chainHead.moved(end);
    this.heads.appended(streamId, revision);
    return { nextExpectedRevision: revision, position: inserted.lastInsertRowid as bigint };
  }

  /** Null when the stream has no events; refuses a deleted stream. */
  private currentRevision(streamId: string): bigint | null {
    const known = this.heads.lastRevision(streamId, this.groupCommit.currentTransaction());
    if (known !== undefined) return known;
    const [current, deleted] = this.statements.streamHead.get(streamId, streamId) as StreamHead;
    if (deleted !== null) throw new StreamDeletedError(streamId);
    return current;
  }

  /** The original result if `ids` are exactly the stored events from `firstRevision` on. */
  private replayFrom(
    streamId: string,
    events: readonly SerializedEvent[],
    firstRevision: bigint,
  ): AppendResult | undefined {
    const stored = this.statements.storedFrom.all(events.length, streamId, firstRevision) as StoredEventRef[];
    return replayedAppendResult(
      events.map((event) => event.id),
      stored,
      firstRevision,
    );
  }

  private readPage(afterPosition: bigint, limit: number | undefined): EventRow[] {
    return this.statements.allAfter.all(limit, afterPosition) as EventRow[];
  }

  private logRead(parts: readonly EnvelopePart[]): { read: LogRead; page: LimitedStatements } {
    const key = envelopeKeyOf(parts);
    let prepared = this.logReads.get(key);
    if (prepared === undefined) {
      const read = logReadOf(parts);
      const page = new LimitedStatements(
        this.db,
        `SELECT ${read.columns} FROM events WHERE position > ? ORDER BY position`,
        true,
      );
      prepared = { read, page };
      this.logReads.set(key, prepared);
    }
    return prepared;
  }

  private logByStream(parts: readonly EnvelopePart[]): LogByStream {
    const key = envelopeKeyOf(parts);
    let prepared = this.logByStreamReads.get(key);
    if (prepared === undefined) {
      prepared = new LogByStream(this.db, parts);
      this.logByStreamReads.set(key, prepared);
    }
    return prepared;
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreClosedError();
  }

  /** A write, or a health check: refused once a sync of the WAL has failed. */
  private assertWritable(): void {
    this.assertOpen();
    this.walSync.assertHealthy();
  }
}

/** `deleted` is 1, or null when the stream was not deleted. */
type StreamHead = [revision: bigint | null, deleted: bigint | null];

type StreamRow = [...EventRow, deleted: bigint | null];
const STREAM_ROW_DELETED = 8;

// Not instanceof: the native addon keeps the SqliteError class of the first module instance (jest loads one per file).
function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE'
  );
}
