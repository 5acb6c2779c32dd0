import Database from 'better-sqlite3';
import {
  EventStoreClosedError,
  StreamDeletedError,
  WrongExpectedRevisionError,
  type AppendResult,
  type EnvelopePart,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type LogEvent,
  type ReadAllOptions,
  type ReadLogOptions,
  type ReadStreamOptions,
  type ReadStreamResult,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type Subscription,
} from './event-store.port.js';
import { replayedAppendResult, type StoredEventRef } from './idempotent-replay.js';
import { assertAppendSize, assertValidAppend, assertValidMaxCount, serializeEvents, type SerializedEvent } from './request-validation.js';
import { EVENT_ROW_COLUMNS, logReadOf, toRecordedEvent, type EventRow, type LogRead, type LogRow } from './sqlite-event-row.js';
import { GroupCommit, type GroupCommitStats } from './sqlite-group-commit.js';
import { migrateEventStoreSchema } from './sqlite-migrations.js';
import { SqliteSubscription } from './sqlite-subscription.js';

export type SqliteEventStoreOptions = {
  /** The database file; created, with its schema, when missing. */
  file: string;
  /** Stamps recordedAt (tests inject a fixed clock). */
  now?: () => Date;
  /** How often live subscriptions look for appends committed by other processes on the same file. */
  pollIntervalMs?: number;
  /** How long a write waits for another process's write lock before failing. */
  busyTimeoutMs?: number;
};

const NO_LIMIT = -1;
const LAST_REVISION = 9_223_372_036_854_775_807n;

/**
 * The embedded event store: one SQLite file in WAL mode with synchronous=FULL, written through one
 * connection with group commit (see README.md for the guarantees and why).
 */
export class SqliteEventStore implements EventStore {
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly subscriptions = new Set<SqliteSubscription>();
  private pollTimer: NodeJS.Timeout | undefined;
  private lastDataVersion: bigint | undefined;
  private readonly groupCommit: GroupCommit;
  private readonly now: () => Date;
  private readonly pollIntervalMs: number;
  private readonly identity: string;
  private readonly statements;
  /** readLog's reads, by the parts they return (at most eight). */
  private readonly logReads = new Map<string, { read: LogRead; page: Database.Statement<[bigint, number], LogRow> }>();

  static open(options: SqliteEventStoreOptions): SqliteEventStore {
    const db = new Database(options.file, { timeout: options.busyTimeoutMs ?? 5_000 });
    try {
      const journalMode = db.pragma('journal_mode = WAL', { simple: true });
      if (journalMode !== 'wal') throw new Error(`${options.file}: SQLite could not use WAL mode here (got ${String(journalMode)})`);
      // FULL syncs the WAL at every commit: an acknowledged append survives a process crash and a power loss.
      db.pragma('synchronous = FULL');
      migrateEventStoreSchema(db, undefined, options.now);
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
    this.now = options.now ?? (() => new Date());
    this.pollIntervalMs = options.pollIntervalMs ?? 100;
    this.groupCommit = new GroupCommit(db, () => this.wakeSubscriptions());
    this.statements = {
      currentRevision: db.prepare('SELECT max(revision) FROM events WHERE stream_id = ?').pluck(),
      revisionOfEvent: db.prepare('SELECT revision FROM events WHERE stream_id = ? AND event_id = ?').pluck(),
      storedFrom: db.prepare(
        'SELECT event_id AS id, revision, position FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?',
      ),
      insert: db.prepare(
        'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      streamForwards: db
        .prepare(`SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?`)
        .raw(true),
      streamBackwards: db
        .prepare(`SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?`)
        .raw(true),
      streamExists: db.prepare('SELECT 1 FROM events WHERE stream_id = ? LIMIT 1').pluck(),
      allAfter: db.prepare(`SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`).raw(true),
      headPosition: db.prepare('SELECT max(position) FROM events').pluck(),
      // Changes whenever ANOTHER connection (another process) commits to the file.
      dataVersion: db.prepare('PRAGMA data_version').pluck(),
      ping: db.prepare('SELECT 1').pluck(),
      isDeleted: db.prepare('SELECT 1 FROM deleted_streams WHERE stream_id = ?').pluck(),
    };
    this.identity = db.prepare('SELECT id FROM store_identity').pluck().get() as string;
  }

  append(streamId: string, events: readonly EventToAppend[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    let serialized: SerializedEvent[];
    try {
      this.assertOpen();
      assertValidAppend(streamId, events, expectedRevision);
      // Serialized now: the caller may change its objects after calling, and a bad value fails only this caller.
      serialized = serializeEvents(streamId, events);
      assertAppendSize(streamId, serialized);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.groupCommit.submit(() => this.write(streamId, serialized, expectedRevision));
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    this.assertOpen();
    assertValidMaxCount(options.maxCount);
    const limit = options.maxCount ?? NO_LIMIT;
    if (this.statements.isDeleted.get(streamId) !== undefined) return { found: false };
    const rows = (
      options.direction === 'backwards'
        ? this.statements.streamBackwards.all(streamId, options.fromRevision ?? LAST_REVISION, limit)
        : this.statements.streamForwards.all(streamId, options.fromRevision ?? 0n, limit)
    ) as EventRow[];
    if (rows.length === 0 && this.statements.streamExists.get(streamId) === undefined) return { found: false };
    return { found: true, events: rows.map(toRecordedEvent) };
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    assertValidMaxCount(options.maxCount);
    return this.readPage(options.fromPosition ?? 0n, options.maxCount ?? NO_LIMIT).map(toRecordedEvent);
  }

  async readLog<P extends EnvelopePart = never>(options: ReadLogOptions<P>): Promise<LogEvent<P>[]> {
    this.assertOpen();
    assertValidMaxCount(options.maxCount);
    const { read, page } = this.logRead(options.parts);
    return page.all(options.fromPosition ?? 0n, options.maxCount ?? NO_LIMIT).map(read.toEvent);
  }

  async headPosition(): Promise<bigint | undefined> {
    this.assertOpen();
    return (this.statements.headPosition.get() as bigint | null) ?? undefined;
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    this.assertOpen();
    const subscription: SqliteSubscription = new SqliteSubscription(
      (after, limit) => this.readPage(after, limit),
      () => (this.statements.headPosition.get() as bigint | null) ?? 0n,
      options,
      () => this.releaseSubscription(subscription),
    );
    this.subscriptions.add(subscription);
    this.startPolling();
    return subscription;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.statements.ping.get();
  }

  async storeId(): Promise<string> {
    this.assertOpen();
    return this.identity;
  }

  /** Commits and acknowledged writes so far: how much group commit is sharing syncs. */
  groupCommitStats(): GroupCommitStats {
    return this.groupCommit.currentStats();
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    this.groupCommit.flush();
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop(new EventStoreClosedError())));
    this.stopPolling();
    this.db.close();
  }

  private write(streamId: string, events: readonly SerializedEvent[], expected: ExpectedRevision): AppendResult {
    if (this.statements.isDeleted.get(streamId) !== undefined) throw new StreamDeletedError(streamId);
    const current = (this.statements.currentRevision.get(streamId) as bigint | null) ?? undefined;
    const conflict = () => new WrongExpectedRevisionError(streamId, expected, current ?? 'no_stream');
    const ids = events.map((event) => event.id);

    if (expected === 'no_stream' || typeof expected === 'bigint') {
      // A repeat of an append with an exact revision finds the stream moved on, its ids where they were put.
      if (!expectedRevisionHolds(expected, current)) {
        const replay = this.replayFrom(streamId, ids, expected === 'no_stream' ? 0n : expected + 1n);
        if (replay === undefined) throw conflict();
        return replay;
      }
    } else {
      // 'any' and 'stream_exists' say nothing of where a repeat would sit: wherever its first id is stored.
      const firstStoredAt = this.statements.revisionOfEvent.get(streamId, ids[0]) as bigint | undefined;
      if (firstStoredAt !== undefined) {
        const replay = this.replayFrom(streamId, ids, firstStoredAt);
        if (replay === undefined) throw conflict();
        return replay;
      }
      if (!expectedRevisionHolds(expected, current)) throw conflict();
    }

    const recordedAt = this.now().toISOString();
    let revision = current ?? -1n;
    let position = 0n;
    for (const event of events) {
      revision += 1n;
      try {
        position = this.statements.insert.run(streamId, revision, event.id, event.type, event.data, event.metadata, recordedAt)
          .lastInsertRowid as bigint;
      } catch (error) {
        // An id of this append is already stored elsewhere in the stream: not a repeat, so a conflict.
        if (isUniqueViolation(error)) throw conflict();
        throw error;
      }
    }
    return { nextExpectedRevision: revision, position };
  }

  /** The original result if `ids` are exactly the stored events from `firstRevision` on. */
  private replayFrom(streamId: string, ids: readonly string[], firstRevision: bigint): AppendResult | undefined {
    const stored = this.statements.storedFrom.all(streamId, firstRevision, ids.length) as StoredEventRef[];
    return replayedAppendResult(ids, stored, firstRevision);
  }

  private readPage(afterPosition: bigint, limit: number): EventRow[] {
    return this.statements.allAfter.all(afterPosition, limit) as EventRow[];
  }

  private logRead(parts: readonly EnvelopePart[]): { read: LogRead; page: Database.Statement<[bigint, number], LogRow> } {
    const read = logReadOf(parts);
    let prepared = this.logReads.get(read.key);
    if (prepared === undefined) {
      const page = this.db.prepare<[bigint, number], LogRow>(`SELECT ${read.columns} FROM events WHERE position > ? ORDER BY position LIMIT ?`).raw(true);
      prepared = { read, page };
      this.logReads.set(read.key, prepared);
    }
    return prepared;
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreClosedError();
  }

  private wakeSubscriptions(): void {
    for (const subscription of this.subscriptions) subscription.wake();
  }

  private releaseSubscription(subscription: SqliteSubscription): void {
    this.subscriptions.delete(subscription);
    if (this.subscriptions.size === 0) this.stopPolling();
  }

  private startPolling(): void {
    if (this.pollTimer !== undefined) return;
    this.lastDataVersion = this.statements.dataVersion.get() as bigint;
    this.pollTimer = setInterval(() => {
      const version = this.statements.dataVersion.get() as bigint;
      if (version === this.lastDataVersion) return;
      this.lastDataVersion = version;
      this.wakeSubscriptions();
    }, this.pollIntervalMs);
  }

  private stopPolling(): void {
    if (this.pollTimer !== undefined) clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }
}

function expectedRevisionHolds(expected: ExpectedRevision, current: bigint | undefined): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return current === undefined;
  if (expected === 'stream_exists') return current !== undefined;
  return current === expected;
}

// By code alone, not instanceof: the native addon keeps the SqliteError class (and its Error realm) of the
// first module instance that loaded it, so in another instance (jest's per-file contexts) instanceof fails.
function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}
