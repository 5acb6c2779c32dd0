import pg from 'pg';
import { CHAIN_GENESIS, chainLink, type ChainedEvent } from './event-chain.js';
import {
  EventStoreClosedError,
  EventStoreTimeoutError,
  type AppendResult,
  type ChainedLog,
  type CommitStats,
  type EnvelopePart,
  type EventStore,
  type EventToAppend,
  type EventBatches,
  type EventRows,
  type ExactLog,
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
  type Subscription,
} from './event-store.port.js';
import {
  CHAINED_PAGE,
  EVENT_ROW_COLUMNS,
  toChainedEvent,
  toRecordedEvent,
  toStoredEvent,
  type ChainedEventRow,
  type EventRow,
} from './postgres-event-row.js';
import { PostgresGroupCommit } from './postgres-group-commit.js';
import { LOG_LOCK_KEY, migratePostgresSchema } from './postgres-schema.js';
import { importIntoPostgres, importRowsIntoPostgres, importUnfinished } from './postgres-import.js';
import { UnfinishedImport } from './unfinished-import.js';
import { PostgresSubscription } from './postgres-subscription.js';
import { PostgresWakeUps } from './postgres-wake-ups.js';
import { SharedHeadPage } from './shared-head-page.js';
import {
  assertAppendSize,
  assertValidAppend,
  assertValidAppends,
  assertValidMaxCount,
  serializeEvents,
} from './request-validation.js';

export type PostgresEventStoreOptions = {
  connectionString: string;
  now?: () => Date;
  /** A notification can be lost: live subscriptions poll this often all the same. */
  pollIntervalMs?: number;
  poolSize?: number;
  /** The bound of ping() and of taking a connection. */
  timeoutMs?: number;
  /** The driver's query_timeout, reads and appends alike. */
  queryTimeoutMs?: number;
  /**
   * Opened by an import (store:copy, store:restore), which may go on with one that has not finished; anything else is
   * refused such a store (UnfinishedImport).
   */
  importing?: boolean;
  /** Called with the text of every query the adapter's pool sends (tests count them). */
  traceQueries?: (sql: string) => void;
};

const LAST_REVISION = '9223372036854775807';
const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

/** A stream's page with the stream's status: a page without an event is one row whose event columns are null. */
type StreamPageRow = Omit<EventRow, 'event_id'> & { event_id: string | null; deleted: boolean; stream_exists: boolean };

/** Revisions as PostgreSQL's text gives them (whole numbers, no sign or leading zero): shorter is smaller. */
const byRevision = (a: EventRow, b: EventRow): number =>
  a.revision.length - b.revision.length || (a.revision < b.revision ? -1 : a.revision > b.revision ? 1 : 0);

/** Group commit under one advisory lock (gapless positions in commit order); LISTEN/NOTIFY with a poll behind it. */
export class PostgresEventStore implements EventStore, ExactLog, ChainedLog {
  readonly appendsAcrossStreamsAtomically = true;
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly subscriptions = new Set<PostgresSubscription>();
  /** One query at the head for all of this node's subscriptions (`shared-head-page.ts`). */
  private readonly headPage = new SharedHeadPage<Promise<EventRow[]>>();
  private readonly groupCommit: PostgresGroupCommit;
  private readonly wakeUps: PostgresWakeUps;
  private readonly timeoutMs: number;
  private readonly pollIntervalMs: number;
  private readonly traceQueries: ((sql: string) => void) | undefined;
  private readonly queryTimeoutMs: number;

  static async connect(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: timeoutMs,
      query_timeout: options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS,
      application_name: 'chorus-event-store',
    });
    pool.on('error', () => undefined);
    // Without a listener, pg's 'error' on a client lost while checked out ends the process (a server restart under load
    // did).
    pool.on('connect', (client) => client.on('error', () => undefined));
    // This store's own backends: a notification one of them sent is a commit this store already woke its subscriptions
    // for, so the listener passes it over (one read per commit, not two).
    const ownBackends = new Set<number>();
    pool.on('connect', (client) => {
      const backend = (client as pg.PoolClient & { processID?: number }).processID;
      if (backend === undefined) return;
      ownBackends.add(backend);
      client.on('end', () => ownBackends.delete(backend));
    });
    try {
      const client = await pool.connect();
      try {
        await migratePostgresSchema(client);
        if (options.importing !== true && (await importUnfinished(client)))
          throw new UnfinishedImport('this PostgreSQL database');
        const { rows } = await client.query<{ id: string }>('SELECT id FROM store_identity');
        return new PostgresEventStore(pool, options, rows[0]?.id ?? '', timeoutMs, ownBackends);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  private constructor(
    private readonly pool: pg.Pool,
    options: PostgresEventStoreOptions,
    private readonly identity: string,
    timeoutMs: number,
    ownBackends: ReadonlySet<number>,
  ) {
    this.timeoutMs = timeoutMs;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
    this.traceQueries = options.traceQueries;
    this.queryTimeoutMs = options.queryTimeoutMs ?? DEFAULT_QUERY_TIMEOUT_MS;
    const now = options.now ?? (() => new Date());
    this.groupCommit = new PostgresGroupCommit(
      pool,
      () => now().toISOString(),
      () => this.wakeSubscriptions(),
    );
    this.wakeUps = new PostgresWakeUps(
      options.connectionString,
      timeoutMs,
      this.pollIntervalMs,
      () => this.readHead(),
      () => this.wakeSubscriptions(),
      ownBackends,
    );
  }

  append(
    streamId: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
  ): Promise<AppendResult> {
    try {
      this.assertOpen();
      assertValidAppend(streamId, events, expectedRevision);
      // Serialized now: the caller may change its objects after calling, and a bad value fails only this caller.
      const serialized = serializeEvents(streamId, events);
      assertAppendSize(streamId, serialized);
      return this.groupCommit
        .submit([{ streamId, events: serialized, expected: expectedRevision }])
        .then(([result]) => result as AppendResult);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]> {
    try {
      this.assertOpen();
      assertValidAppends(appends);
      const parts = appends.map(({ streamId, events, expectedRevision }) => {
        const serialized = serializeEvents(streamId, events);
        assertAppendSize(streamId, serialized);
        return { streamId, events: serialized, expected: expectedRevision };
      });
      return this.groupCommit.submit(parts);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  async readStream(streamId: string, options: ReadStreamOptions = {}): Promise<ReadStreamResult> {
    this.assertOpen();
    assertValidMaxCount(options.maxCount);
    const backwards = options.direction === 'backwards';
    // One round trip whatever the answer: a stream's page, or one row without an event that says whether the stream
    // exists (a command's read after its cached fold, and a new stream's, find no event: most reads on an add's path).
    const { rows } = await this.query<StreamPageRow>(
      'readStream',
      `SELECT page.*, status.deleted, page.event_id IS NULL AND EXISTS (SELECT 1 FROM events WHERE stream_id = $1) AS stream_exists
       FROM (SELECT EXISTS (SELECT 1 FROM deleted_streams WHERE stream_id = $1) AS deleted) status
       LEFT JOIN LATERAL (
         SELECT ${EVENT_ROW_COLUMNS} FROM events
         WHERE stream_id = $1 AND revision ${backwards ? '<=' : '>='} $2 ORDER BY events.revision ${backwards ? 'DESC' : ''} LIMIT $3
       ) page ON true`,
      [streamId, options.fromRevision?.toString() ?? (backwards ? LAST_REVISION : '0'), options.maxCount ?? null],
      backwards ? 'chorus-read-stream-backwards' : 'chorus-read-stream',
    );
    const first = rows[0];
    if (first === undefined || first.deleted) return { found: false };
    if (first.event_id === null) return first.stream_exists ? { found: true, events: [] } : { found: false };
    // No ORDER BY outside the join: PostgreSQL would sort the page again (on disk, for a long stream read whole). The
    // rows come in the page's order; the sort only makes that a promise, in one pass over rows already in order.
    const page = rows as EventRow[];
    page.sort(backwards ? (a, b) => byRevision(b, a) : byRevision);
    return { found: true, events: page.map(toRecordedEvent) };
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    assertValidMaxCount(options.maxCount);
    return this.readPage(options.fromPosition ?? 0n, options.maxCount);
  }

  /** Every part comes along: PostgreSQL sends the row either way. */
  async readLog<P extends EnvelopePart = never>(options: ReadLogOptions<P>): Promise<LogEvent<P>[]> {
    return this.readAll(options);
  }

  async readLogByStream<P extends EnvelopePart = never>(options: ReadLogByStreamOptions<P>): Promise<LogEvent<P>[]> {
    this.assertOpen();
    assertValidMaxCount(options.maxCount);
    if (options.streamPrefix.length === 0) throw new RangeError('readLogByStream needs a stream prefix');
    const after = options.after;
    const { rows } = await this.query<EventRow>(
      'readLogByStream',
      `SELECT ${EVENT_ROW_COLUMNS} FROM events
       WHERE stream_id >= $1 AND starts_with(stream_id, $1) AND position <= $2
         AND ($3::text IS NULL OR (stream_id, revision) > ($3::text COLLATE "C", $4::bigint))
       ORDER BY events.stream_id, events.revision LIMIT $5`,
      [
        options.streamPrefix,
        options.toPosition.toString(),
        after?.streamId ?? null,
        after?.revision.toString() ?? null,
        options.maxCount,
      ],
    );
    return rows.map(toRecordedEvent);
  }

  async headPosition(): Promise<bigint | undefined> {
    this.assertOpen();
    const head = await this.readHead();
    return head === 0n ? undefined : head;
  }

  subscribeToAll(options: SubscribeToAllOptions): Subscription {
    this.assertOpen();
    const madeAfter = this.headPage.madeNow;
    const subscription: PostgresSubscription = new PostgresSubscription(
      async (after, limit) => (await this.sharedRows(after, limit, madeAfter)).map(toRecordedEvent),
      () => this.readHead(),
      options,
      () => this.releaseSubscription(subscription),
      this.pollIntervalMs,
    );
    this.subscriptions.add(subscription);
    this.wakeUps.start();
    return subscription;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new EventStoreTimeoutError('ping', this.timeoutMs)), this.timeoutMs);
    });
    try {
      await Promise.race([this.pool.query('SELECT 1'), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  async storeId(): Promise<string> {
    this.assertOpen();
    return this.identity;
  }

  groupCommitStats(): CommitStats {
    return this.groupCommit.currentStats();
  }

  commitStats(): CommitStats {
    return this.groupCommit.currentStats();
  }

  async exportEvents(afterPosition: bigint, maxCount: number): Promise<StoredEvent[]> {
    this.assertOpen();
    const { rows } = await this.query<EventRow>(
      'exportEvents',
      `SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE position > $1 ORDER BY events.position LIMIT $2`,
      [afterPosition.toString(), maxCount],
    );
    return rows.map(toStoredEvent);
  }

  async readChain(afterPosition: bigint, maxCount: number): Promise<ChainedEvent[]> {
    this.assertOpen();
    const { rows } = await this.query<ChainedEventRow>('readChain', CHAINED_PAGE, [afterPosition.toString(), maxCount]);
    return rows.map(toChainedEvent);
  }

  /** In one transaction under the log lock, as appends take it: each event without a hash linked to the one before. */
  async chainNext(
    afterPosition: bigint,
    maxCount: number,
  ): Promise<{ chained: number; lastPosition: bigint | undefined }> {
    this.assertOpen();
    await this.groupCommit.flush();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [LOG_LOCK_KEY.toString()]);
      const before = await client.query<{ hash: Buffer | null }>(
        'SELECT hash FROM events WHERE position <= $1 ORDER BY position DESC LIMIT 1',
        [afterPosition.toString()],
      );
      const start = before.rows[0];
      if (start !== undefined && start.hash === null)
        throw new RangeError(`The events up to position ${afterPosition} are not chained yet`);
      const { rows } = await client.query<ChainedEventRow>(CHAINED_PAGE, [afterPosition.toString(), maxCount]);
      let previous = start?.hash ?? CHAIN_GENESIS;
      const positions: string[] = [];
      const hashes: Buffer[] = [];
      for (const row of rows) {
        let hash = row.hash;
        if (hash === null) {
          hash = chainLink(previous, toStoredEvent(row));
          positions.push(row.position);
          hashes.push(hash);
        }
        previous = hash;
      }
      // The trigger lets a row take its first hash and nothing else.
      if (positions.length > 0)
        await client.query(
          'UPDATE events SET hash = given.hash FROM unnest($1::bigint[], $2::bytea[]) AS given (position, hash) WHERE events.position = given.position AND events.hash IS NULL',
          [positions, hashes],
        );
      await client.query('COMMIT');
      return {
        chained: positions.length,
        lastPosition: rows.length === 0 ? undefined : BigInt(rows.at(-1)?.position ?? '0'),
      };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async importEvents(batches: EventBatches, onImported?: (events: number) => void): Promise<void> {
    this.assertOpen();
    await this.groupCommit.flush();
    await importIntoPostgres(this.pool, batches, this.wakeAfterImport(onImported));
  }

  async importRows(batches: AsyncIterable<readonly EventRows[]>, onImported?: (events: number) => void): Promise<void> {
    this.assertOpen();
    await this.groupCommit.flush();
    await importRowsIntoPostgres(this.pool, batches, this.wakeAfterImport(onImported));
  }

  /** A batch an import committed: its notification came from this store's own backend, which the listener passes over. */
  private wakeAfterImport(onImported?: (events: number) => void): (events: number) => void {
    return (events) => {
      this.wakeSubscriptions();
      onImported?.(events);
    };
  }

  async deletedStreams(): Promise<string[]> {
    this.assertOpen();
    const { rows } = await this.query<{ stream_id: string }>(
      'deletedStreams',
      'SELECT stream_id FROM deleted_streams ORDER BY stream_id',
    );
    return rows.map((row) => row.stream_id);
  }

  async markDeleted(streamIds: readonly string[]): Promise<void> {
    this.assertOpen();
    await this.query(
      'markDeleted',
      'INSERT INTO deleted_streams (stream_id) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING',
      [[...streamIds]],
    );
  }

  async countEvents(): Promise<number> {
    this.assertOpen();
    const { rows } = await this.query<{ count: string }>('countEvents', 'SELECT count(*)::text AS count FROM events');
    return Number(rows[0]?.count ?? '0');
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.closed = true;
    // Stopped before the pending appends commit: a commit's wake-up would deliver them to a subscriber on its way out.
    const stopping = Promise.all(
      [...this.subscriptions].map((subscription) => subscription.stop(new EventStoreClosedError())),
    );
    await this.groupCommit.flush();
    await stopping;
    this.wakeUps.stop();
    await this.pool.end();
  }

  private async readPage(afterPosition: bigint, limit: number | undefined): Promise<RecordedEvent[]> {
    return (await this.readRows(afterPosition, limit)).map(toRecordedEvent);
  }

  private async readRows(afterPosition: bigint, limit: number | undefined): Promise<EventRow[]> {
    const { rows } = await this.query<EventRow>(
      'readAll',
      `SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE position > $1 ORDER BY events.position LIMIT $2`,
      [afterPosition.toString(), limit ?? null],
    );
    return rows;
  }

  /** A subscription's page: the query already under way for the same rows, when it began after the subscription. */
  private sharedRows(afterPosition: bigint, limit: number, madeAfter: number): Promise<EventRow[]> {
    return this.headPage.take(afterPosition, limit, madeAfter, () => {
      const rows = this.readRows(afterPosition, limit);
      // A failed query is not shared: the next subscription to ask queries again.
      rows.catch(() => this.headPage.drop(rows));
      return rows;
    });
  }

  private async readHead(): Promise<bigint> {
    const { rows } = await this.query<{ head: string }>(
      'headPosition',
      'SELECT coalesce(max(position), 0)::text AS head FROM events',
    );
    return BigInt(rows[0]?.head ?? '0');
  }

  /** The driver's bounds surface as EventStoreTimeoutError. */
  private async query<R extends pg.QueryResultRow>(
    operation: string,
    text: string,
    values: unknown[] = [],
    /** A statement prepared once per connection under this name: planned once, not at every call. */
    prepared?: string,
  ): Promise<pg.QueryResult<R>> {
    try {
      this.traceQueries?.(text);
      return await this.pool.query<R>(prepared === undefined ? { text, values } : { name: prepared, text, values });
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      if (message === 'Query read timeout' || message.startsWith('timeout exceeded when trying to connect')) {
        throw new EventStoreTimeoutError(
          operation,
          message === 'Query read timeout' ? this.queryTimeoutMs : this.timeoutMs,
        );
      }
      throw error;
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new EventStoreClosedError();
  }

  private wakeSubscriptions(): void {
    this.headPage.drop();
    for (const subscription of this.subscriptions) subscription.wake();
  }

  private releaseSubscription(subscription: PostgresSubscription): void {
    this.subscriptions.delete(subscription);
    if (this.subscriptions.size === 0) {
      this.headPage.drop();
      this.wakeUps.stop();
    }
  }
}
