/**
 * The page a store's subscriptions at the head all ask for after each commit, read once for all of them and dropped
 * at every wake. Only a subscription made before the read began takes it, so it sees everything committed before it
 * was made. `Rows` is the read's answer as the store gives it (rows, or a promise of them): never an event a handler
 * could change, since each subscription makes its own events of the rows.
 */
export class SharedHeadPage<Rows> {
  private page: { afterPosition: bigint; limit: number; rows: Rows; read: number } | undefined;
  private reads = 0;

  /** What a subscription made now remembers, to pass to `take`. */
  get madeNow(): number {
    return this.reads;
  }

  /** The rows after `afterPosition`: the page read already, or `read()`'s answer, kept for the others. */
  take(afterPosition: bigint, limit: number, madeAfter: number, read: () => Rows): Rows {
    const page = this.page;
    if (page !== undefined && page.read > madeAfter && page.afterPosition === afterPosition && page.limit === limit)
      return page.rows;
    this.reads += 1;
    const rows = read();
    this.page = { afterPosition, limit, rows, read: this.reads };
    return rows;
  }

  /** New rows may have been committed, or the page's read failed: the next subscription to ask reads again. */
  drop(rows?: Rows): void {
    if (rows === undefined || this.page?.rows === rows) this.page = undefined;
  }
}
