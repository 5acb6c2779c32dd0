import type Database from 'better-sqlite3';

type PendingWrite = {
  readonly write: () => unknown;
  /** The write changes the database in one statement at most: SQLite's statement rollback undoes it alone. */
  readonly oneStatement: boolean;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** What the write returned, or threw when `failed`; its caller gets it once the transaction has ended. */
  outcome: unknown;
  failed: boolean;
};

export type GroupCommitStats = {
  /** Transactions committed (each one sync of the WAL). */
  commits: number;
  /** Writes acknowledged by those commits. */
  writes: number;
};

/**
 * Group commit over one SQLite connection. Writes submitted together (in the same event-loop turn,
 * or while the previous transaction was syncing and blocking the loop) run in ONE transaction with
 * ONE sync. Each write runs in its own savepoint (unless it changes the database in one statement, which
 * SQLite undoes alone when it fails), so a write that throws undoes only itself and the others still
 * commit; every caller is settled only after COMMIT has returned.
 */
export class GroupCommit {
  private queue: PendingWrite[] = [];
  private scheduled: NodeJS.Immediate | undefined;
  private readonly commitScheduledOnce = (): void => this.commitScheduled();
  private readonly stats: GroupCommitStats = { commits: 0, writes: 0 };
  private transactionsBegun = 0;
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  private readonly rollback: Database.Statement;
  private readonly savepoint: Database.Statement;
  private readonly release: Database.Statement;
  private readonly rollbackToSavepoint: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    /** Called after each commit that acknowledged at least one write. */
    private readonly onCommitted: () => void,
    /** Called when what a write did was undone after it had returned: its savepoint, or the whole transaction, rolled back. */
    private readonly onUndone: () => void,
    private readonly maxWritesPerCommit = 1000,
  ) {
    // IMMEDIATE takes the write lock up front, so another process cannot make the commit fail half-way.
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT write');
    this.release = db.prepare('RELEASE write');
    this.rollbackToSavepoint = db.prepare('ROLLBACK TO write');
  }

  /**
   * Runs `write` inside the next shared transaction; resolves with its value once that transaction is
   * committed. `oneStatement`: the write changes the database in one SQL statement at most (its other
   * statements only read, and nothing after that statement throws), so it needs no savepoint.
   */
  submit<T>(write: () => T, oneStatement = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, oneStatement, resolve: resolve as (value: unknown) => void, reject, outcome: undefined, failed: false });
      this.scheduled ??= setImmediate(this.commitScheduledOnce);
    });
  }

  /** Commits everything still queued, now (close() needs it before closing the database). */
  flush(): void {
    if (this.scheduled !== undefined) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    while (this.queue.length > 0) this.commitBatch(this.nextBatch());
  }

  /** Numbers the write transactions: a write can tell whether it runs in the same one as an earlier write. */
  currentTransaction(): number {
    return this.transactionsBegun;
  }

  currentStats(): GroupCommitStats {
    return { ...this.stats };
  }

  private commitScheduled(): void {
    this.scheduled = undefined;
    this.commitBatch(this.nextBatch());
    if (this.queue.length > 0) this.scheduled = setImmediate(this.commitScheduledOnce);
  }

  /** The oldest writes queued, as many as one commit takes. */
  private nextBatch(): PendingWrite[] {
    if (this.queue.length > this.maxWritesPerCommit) return this.queue.splice(0, this.maxWritesPerCommit);
    const batch = this.queue;
    this.queue = [];
    return batch;
  }

  private commitBatch(batch: readonly PendingWrite[]): void {
    let acknowledged: number;
    try {
      acknowledged = this.runInTransaction(batch);
    } catch (error) {
      // The transaction failed as a whole: nothing of the batch is stored, every caller is told so.
      for (const pending of batch) pending.reject(error);
      return;
    }
    if (acknowledged > 0) {
      this.stats.commits += 1;
      this.stats.writes += acknowledged;
    }
    for (const pending of batch) {
      if (pending.failed) pending.reject(pending.outcome);
      else pending.resolve(pending.outcome);
    }
    if (acknowledged > 0) this.onCommitted();
  }

  /** Runs the batch's writes in one transaction, each keeping its outcome; answers how many it committed. */
  private runInTransaction(batch: readonly PendingWrite[]): number {
    this.begin.run();
    this.transactionsBegun += 1;
    // A lone write needs no savepoint: if it fails, the whole transaction is rolled back. Nor does a
    // one-statement write (savepoint and release cost about 10-14 us of CPU per write, bench/event-store).
    const shared = batch.length > 1;
    let succeeded = 0;
    try {
      for (const pending of batch) {
        const isolate = shared && !pending.oneStatement;
        if (isolate) this.savepoint.run();
        try {
          pending.outcome = pending.write();
          if (isolate) this.release.run();
          succeeded += 1;
        } catch (error) {
          // SQLite itself abandoned the transaction (disk full, I/O error): nothing of the batch is stored.
          if (!this.db.inTransaction) throw error;
          if (isolate) {
            this.rollbackToSavepoint.run();
            this.release.run();
            // The write may have returned before its savepoint's release failed.
            this.onUndone();
          }
          pending.outcome = error;
          pending.failed = true;
        }
      }
      if (succeeded > 0) this.commit.run();
      else this.rollback.run();
      return succeeded;
    } catch (error) {
      this.onUndone();
      if (this.db.inTransaction) this.rollback.run();
      throw error;
    }
  }
}
