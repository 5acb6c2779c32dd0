// The embedded log's chain, given at append under SQLite's write lock: the writer knows the last event's position and
// hash, links its events in JS and inserts them at the next positions, so appends from any process (a server, the
// command line) chain in log order. (A single INSERT ... SELECT reading the last row cost 40-80 us an append more than
// this: SQLite materialises a select from the table it inserts into; bench/event-store/README.md.)
import type Database from 'better-sqlite3';
import { CHAIN_GENESIS, chainLink, importedHash, type ChainedEvent } from './event-chain.js';
import type { StoredEvent } from './event-store.port.js';
import { EVENT_ROW_COLUMNS, type EventRow } from './sqlite-event-row.js';
import { LimitedStatements } from './sqlite-limited-statements.js';

/**
 * An append at its position with its hash: `linked`'s row. Positional parameters: binding nine named ones cost an
 * append more than its hash (bench/event-store, The chain).
 */
export const CHAINED_INSERT = `INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** The same, unless the stream was deleted (the stream id once more, last): one statement, for an append alone. */
export const CHAINED_INSERT_UNLESS_DELETED = `INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash)
  SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM deleted_streams WHERE stream_id = ?)`;

/** Where the log ends: the next position, and the hash to link to (null: the log was written before the chain). */
export type ChainEnd = { next: bigint; previous: Buffer | null };

/** The fields of an event to append, as serialized. */
type Appended = { id: string; type: string; data: string; metadata: string };

/** CHAINED_INSERT's parameters, in its order. */
export type ChainedRow = [
  position: bigint,
  streamId: string,
  revision: bigint,
  id: string,
  type: string,
  data: string,
  metadata: string,
  recordedAt: string,
  hash: Buffer | null,
];

/**
 * CHAINED_INSERT's parameters for the event at the chain's end (or at the position an import carries); the end moves
 * past it. Hashed where it stands: this runs for every event appended.
 */
export function linked(
  end: ChainEnd,
  streamId: string,
  revision: bigint,
  { id, type, data, metadata }: Appended,
  recordedAt: string,
  position = end.next,
): ChainedRow {
  const hash =
    end.previous === null
      ? null
      : chainLink(end.previous, { position, streamId, revision, id, type, data, metadata, recordedAt });
  end.next = position + 1n;
  end.previous = hash;
  return [position, streamId, revision, id, type, data, metadata, recordedAt, hash];
}

/** CHAINED_INSERT's parameters for an imported event at its own position (`importedHash`); the end moves past it. */
export function imported(end: ChainEnd, event: StoredEvent): ChainedRow {
  const { position, streamId, revision, id, type, data, metadata, recordedAt } = event;
  const hash = importedHash(end.previous, event);
  end.next = position + 1n;
  end.previous = hash;
  return [position, streamId, revision, id, type, data, metadata, recordedAt, hash];
}

/**
 * The log's end as this connection last knew it. Exact under the write lock (`read` in a transaction). For a write
 * alone in its commit, `remembered` may be stale: then another process appended, took the position, and the insert
 * is refused. A log not yet chained is read again every time, since `store:chain` may chain it meanwhile.
 */
export class ChainHead {
  private readonly last: Database.Statement;
  private known: ChainEnd | undefined;
  /** Where the transaction under way left the end, kept once it commits. */
  private pending: { end: ChainEnd; transaction: number } | undefined;

  constructor(db: Database.Database) {
    this.last = db.prepare('SELECT position, hash FROM events ORDER BY position DESC LIMIT 1').raw();
  }

  /**
   * The end as this write transaction sees it: where an earlier write of the same transaction left it, or as stored
   * (one read a transaction, however many commands share it).
   */
  read(transaction: number): ChainEnd {
    if (this.pending !== undefined && this.pending.transaction === transaction) return { ...this.pending.end };
    const row = this.last.get() as [bigint, Buffer | null] | undefined;
    if (row === undefined) return { next: 1n, previous: CHAIN_GENESIS };
    return { next: row[0] + 1n, previous: row[1] };
  }

  /** Possibly stale: only for a write whose own insert fails when its position is taken (`writeAlone`). */
  remembered(): ChainEnd {
    if (this.known === undefined || this.known.previous === null) this.known = this.read(-1);
    return { ...this.known };
  }

  /** After a write alone in its commit: the end it left, committed. */
  moved(end: ChainEnd): void {
    this.known = { ...end };
    // What a transaction that was rolled back left (a multi-stream append whose second part failed) is not the end.
    this.pending = undefined;
  }

  /** A write in a transaction left the end here: known once the transaction commits. */
  wrote(end: ChainEnd, transaction: number): void {
    this.known = undefined;
    this.pending = { end: { ...end }, transaction };
  }

  /** A commit: the end its transaction left, if it was that transaction's. */
  committed(transaction: number): void {
    if (this.pending?.transaction === transaction) this.known = this.pending.end;
    this.pending = undefined;
  }

  /** The last position this connection committed, when known: other processes may have committed past it. */
  lastCommitted(): bigint | undefined {
    return this.known === undefined ? undefined : this.known.next - 1n;
  }

  /** A write was undone, or failed: the end is read again next time. */
  forget(): void {
    this.known = undefined;
    this.pending = undefined;
  }
}

type ChainRow = [...EventRow, hash: Buffer | null];

// One object a row, without a spread: store:verify maps every event of the log through it.
const toChainedEvent = ([
  position,
  streamId,
  revision,
  id,
  type,
  data,
  metadata,
  recordedAt,
  hash,
]: ChainRow): ChainedEvent => ({
  position,
  streamId,
  revision,
  id,
  type,
  data,
  metadata,
  recordedAt,
  hash,
});

/** The chain read with the events, and given to those written before it (`store:chain`). */
export class SqliteChain {
  private readonly after: LimitedStatements;
  private readonly hashUpTo: Database.Statement;
  private readonly setHash: Database.Statement;

  constructor(db: Database.Database) {
    this.after = new LimitedStatements(
      db,
      `SELECT ${EVENT_ROW_COLUMNS}, hash FROM events WHERE position > ? ORDER BY position`,
      true,
    );
    // The hash of the last event at or before a position: NULL when that event has none, no row before the first.
    this.hashUpTo = db.prepare('SELECT hash FROM events WHERE position <= ? ORDER BY position DESC LIMIT 1').pluck();
    // The trigger lets a row take its first hash and nothing else.
    this.setHash = db.prepare('UPDATE events SET hash = ? WHERE position = ? AND hash IS NULL');
  }

  read(afterPosition: bigint, maxCount: number): ChainedEvent[] {
    return (this.after.all(maxCount, afterPosition) as ChainRow[]).map(toChainedEvent);
  }

  /** In the caller's transaction, under the write lock: each event without a hash linked to the one before. */
  give(afterPosition: bigint, maxCount: number): { chained: number; lastPosition: bigint | undefined } {
    const before = this.hashUpTo.get(afterPosition) as Buffer | null | undefined;
    if (before === null) throw new RangeError(`The events up to position ${afterPosition} are not chained yet`);
    let previous = before ?? CHAIN_GENESIS;
    let chained = 0;
    const events = this.read(afterPosition, maxCount);
    for (const event of events) {
      if (event.hash === null) {
        event.hash = chainLink(previous, event);
        this.setHash.run(event.hash, event.position);
        chained += 1;
      }
      previous = event.hash;
    }
    return { chained, lastPosition: events.at(-1)?.position };
  }
}
