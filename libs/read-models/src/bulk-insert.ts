// Rows into a table that holds none of them yet (a rebuild's aside tables, verify's in-memory ones),
// many per statement: one call into SQLite per `rowsPerStatement` rows instead of one per row.
import type { Statement } from 'better-sqlite3';
import type { ReadModelDatabase } from './read-model-database.js';

/**
 * Rows per statement. SQLite binds at most 32,766 parameters per statement; 64 rows of a few columns
 * stay far below, and past a few dozen rows the call's own cost no longer shows (bench/projections).
 */
const rowsPerStatement = 64;

export class BulkInsert {
  private readonly full: Statement<unknown[]>;
  private readonly one: Statement<unknown[]>;
  private pending: unknown[] = [];
  private rows = 0;

  /** `INSERT INTO table (columns) VALUES ...`: a plain insert, so the rows must not be in the table yet. */
  constructor(
    db: ReadModelDatabase,
    table: string,
    private readonly columns: readonly string[],
  ) {
    const row = `(${columns.map(() => '?').join(', ')})`;
    const insert = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
    this.full = db.prepare(insert + Array.from({ length: rowsPerStatement }, () => row).join(', '));
    this.one = db.prepare(insert + row);
  }

  /** Queues one row (its values in the order of the columns); written at the latest by `finish`. */
  add(...values: unknown[]): void {
    if (values.length !== this.columns.length) throw new RangeError(`${values.length} values for ${this.columns.length} columns`);
    for (const value of values) this.pending.push(value);
    this.rows += 1;
    if (this.rows === rowsPerStatement) {
      this.full.run(this.pending);
      this.pending = [];
      this.rows = 0;
    }
  }

  /** Writes the queued rows: call it before the transaction they belong to commits. */
  finish(): void {
    const width = this.columns.length;
    for (let row = 0; row < this.rows; row += 1) this.one.run(this.pending.slice(row * width, (row + 1) * width));
    this.pending = [];
    this.rows = 0;
  }

  /** Forgets the queued rows (their transaction rolled back). */
  discard(): void {
    this.pending = [];
    this.rows = 0;
  }
}
