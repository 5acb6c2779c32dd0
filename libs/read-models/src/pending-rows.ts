// What a projection writer applied and has not written yet, written in chunks (a rebuild commits every so
// many rows) and, given a key order, in that order: a rebuild's many rows then fill the tables' pages one
// after another instead of at random (bench/projections). Order changes no row.

export class PendingRows<Row> {
  private rows: Row[] = [];
  /** How many of `rows` are written already (a flush in chunks). */
  private written = 0;
  private inKeyOrder = true;

  constructor(
    private readonly write: (row: Row) => void,
    private readonly keyOrder?: (a: Row, b: Row) => number,
  ) {}

  /** Rows applied and not yet written. */
  get size(): number {
    return this.rows.length - this.written;
  }

  push(row: Row): void {
    this.rows.push(row);
    if (this.keyOrder !== undefined) this.inKeyOrder = false;
  }

  /** Writes at most `maxRows` of the pending rows; true when none remain. */
  flush(maxRows = Number.POSITIVE_INFINITY): boolean {
    if (!this.inKeyOrder && this.keyOrder !== undefined) {
      this.rows = this.rows.slice(this.written).sort(this.keyOrder);
      this.written = 0;
      this.inKeyOrder = true;
    }
    const end = Math.min(this.rows.length, this.written + maxRows);
    for (let index = this.written; index < end; index += 1) this.write(this.rows[index] as Row);
    this.written = end;
    if (end < this.rows.length) return false;
    this.discard();
    return true;
  }

  /** Drops what is not written (its transaction rolled back). */
  discard(): void {
    this.rows = [];
    this.written = 0;
    this.inKeyOrder = true;
  }
}
