// The embedded log's events as PostgreSQL COPY's text, written out by SQLite itself: a copy into PostgreSQL then makes
// no object and no string per event in JavaScript, whose collector was a third of the copy's time (bench/backup).
import type Database from 'better-sqlite3';
import type { EventRows } from './event-store.port.js';

/** A text column in COPY's text format: the backslash, tab, newline and carriage return escaped. */
const escaped = (column: string): string =>
  `replace(replace(replace(replace(${column}, '\\', '\\\\'), char(9), '\\t'), char(10), '\\n'), char(13), '\\r')`;

/** One event's line, tab between its columns (EVENT_ROWS_COLUMNS); NULL where it has no hash. */
const LINE = [
  'position',
  escaped('stream_id'),
  'revision',
  escaped('event_id'),
  escaped('type'),
  escaped('data'),
  escaped('metadata'),
  escaped('recorded_at'),
  // bytea's hex input, its backslash doubled for COPY.
  `'\\\\x' || hex(hash)`,
].join(' || char(9) || ');

const ROWS = `WITH page AS MATERIALIZED (
    SELECT position, hash, ${LINE} AS line FROM events WHERE position > ? AND position <= ? ORDER BY position LIMIT ?
  )
  SELECT CAST(group_concat(line, char(10) ORDER BY position) || char(10) AS BLOB), count(*), count(line),
    min(position), max(position), (SELECT hash FROM page ORDER BY position DESC LIMIT 1)
  FROM page`;

type RowsRow = [
  text: Buffer | null,
  count: bigint,
  hashed: bigint,
  first: bigint | null,
  last: bigint | null,
  lastHash: Buffer | null,
];

const NO_END = 2n ** 63n - 1n;

export class SqliteEventRows {
  private readonly rows: Database.Statement;

  constructor(db: Database.Database) {
    this.rows = db.prepare(ROWS).raw(true).safeIntegers(true);
  }

  /** Up to `maxCount` events after `afterPosition` (up to `upToPosition`); undefined when none, or one not chained. */
  read(afterPosition: bigint, upToPosition: bigint | undefined, maxCount: number): EventRows | undefined {
    const [text, count, hashed, first, last, lastHash] = this.rows.get(
      afterPosition,
      upToPosition ?? NO_END,
      maxCount,
    ) as RowsRow;
    if (count === 0n || hashed !== count || text === null || first === null || last === null || lastHash === null)
      return undefined;
    return { text, count: Number(count), firstPosition: first, lastPosition: last, lastHash };
  }
}
