import type Database from 'better-sqlite3';

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

type PendingWrite = {
  write: () => unknown;
  /** The write changes the database in one statement at most: SQLite's statement rollback undoes it alone. */
  oneStatement: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
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
  private readonly stats: GroupCommitStats = { commits: 0, writes: 0 };
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
      this.queue.push({ write, oneStatement, resolve: resolve as (value: unknown) => void, reject });
      this.scheduled ??= setImmediate(() => this.commitScheduled());
    });
  }

  /** Commits everything still queued, now (close() needs it before closing the database). */
  flush(): void {
    if (this.scheduled !== undefined) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    while (this.queue.length > 0) this.commitBatch(this.queue.splice(0, this.maxWritesPerCommit));
  }

  currentStats(): GroupCommitStats {
    return { ...this.stats };
  }

  private commitScheduled(): void {
    this.scheduled = undefined;
    this.commitBatch(this.queue.splice(0, this.maxWritesPerCommit));
    if (this.queue.length > 0) this.scheduled = setImmediate(() => this.commitScheduled());
  }

  private commitBatch(batch: readonly PendingWrite[]): void {
    let outcomes: Outcome[];
    try {
      outcomes = this.runInTransaction(batch);
    } catch (error) {
      outcomes = batch.map(() => ({ ok: false, error }));
    }
    const acknowledged = outcomes.filter((outcome) => outcome.ok).length;
    if (acknowledged > 0) {
      this.stats.commits += 1;
      this.stats.writes += acknowledged;
    }
    batch.forEach((pending, index) => {
      const outcome = outcomes[index] ?? { ok: false, error: new Error('write was not run') };
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
    if (acknowledged > 0) this.onCommitted();
  }

  private runInTransaction(batch: readonly PendingWrite[]): Outcome[] {
    this.begin.run();
    // A lone write needs no savepoint: if it fails, the whole transaction is rolled back. Nor does a
    // one-statement write (savepoint and release cost about 10-14 us of CPU per write, bench/event-store).
    const shared = batch.length > 1;
    const outcomes: Outcome[] = [];
    try {
      for (const pending of batch) {
        const isolate = shared && !pending.oneStatement;
        if (isolate) this.savepoint.run();
        try {
          const value = pending.write();
          if (isolate) this.release.run();
          outcomes.push({ ok: true, value });
        } catch (error) {
          // SQLite itself abandoned the transaction (disk full, I/O error): nothing of the batch is stored.
          if (!this.db.inTransaction) throw error;
          if (isolate) {
            this.rollbackToSavepoint.run();
            this.release.run();
          }
          outcomes.push({ ok: false, error });
        }
      }
      if (outcomes.some((outcome) => outcome.ok)) this.commit.run();
      else this.rollback.run();
      return outcomes;
    } catch (error) {
      if (this.db.inTransaction) this.rollback.run();
      throw error;
    }
  }
}
