// Written in key order, a rebuild's rows fill the tables' pages one after another instead of at random
// (bench/projections).

export class PendingRows<Row> {
  private rows: Row[] = [];
  private written = 0;
  private inKeyOrder = true;

  constructor(
    private readonly write: (row: Row) => void,
    private readonly keyOrder?: (a: Row, b: Row) => number,
  ) {}

  get size(): number {
    return this.rows.length - this.written;
  }

  push(row: Row): void {
    this.rows.push(row);
    if (this.keyOrder !== undefined) this.inKeyOrder = false;
  }

  /** True when none remain. */
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

  discard(): void {
    this.rows = [];
    this.written = 0;
    this.inKeyOrder = true;
  }
}
