import type Database from 'better-sqlite3';

type PendingWrite = {
  readonly write: () => unknown;
  /** The write changes the database in one statement at most: SQLite's statement rollback undoes it alone. */
  readonly oneStatement: boolean;
  /** The same write as one autocommit statement, for when it is alone in its commit; see `submit`. */
  readonly alone: (() => unknown) | undefined;
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
  /** Turns of the event loop waited for, for other tasks' writes to join a commit (the other commits ran when their task ended). */
  waitedForTurn: number;
};

/**
 * Commits in a row at the end of their task, after which the next one waits for the turn all the same: a
 * writer awaiting append after append never leaves its task, and everything else (timers, I/O) would wait.
 */
export const COMMITS_AT_ONCE_BETWEEN_TURNS = 8;
/** Waited turns in a row that no other task joined, after which a writer following its own commit stops waiting for the turn. */
export const LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE = 4;

const settled = Promise.resolve();

/**
 * Group commit over one SQLite connection. Writes submitted together run in ONE transaction with ONE
 * sync. Each write runs in its own savepoint (unless it changes the database in one statement, which
 * SQLite undoes alone when it fails), so a write that throws undoes only itself and the others still
 * commit; every caller is settled only after COMMIT has returned. A write alone in its commit may run as
 * one autocommit statement instead (its own transaction and sync), when it offers one.
 *
 * When: always after the task that submitted the first write of the batch has run to its end (its promise
 * callbacks included), so the writes a task issues together (Promise.all, a sign-in's) share the commit.
 * It also waits for the event loop's turn (setImmediate), so that the writes of OTHER tasks of the turn
 * (other requests; and those that arrived while the previous commit was syncing) join it, unless company
 * is not to be expected, i.e. both hold (as PostgreSQL's commit_delay waits only with commit_siblings):
 * - the first write came in the task in which this group commit had just acknowledged writes: its caller
 *   was waiting for the store (a writer awaiting append after append), it did not arrive from elsewhere;
 * - none of the last LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE turns waited for was joined by another task.
 * Every COMMITS_AT_ONCE_BETWEEN_TURNS + 1-th commit waits for the turn all the same (see that constant).
 */
export class GroupCommit {
  private queue: PendingWrite[] = [];
  /** A commit of the queue is to come: at the end of the current task, or after the turn. */
  private scheduled = false;
  /** That commit will not wait for the turn. */
  private atEndOfTask = false;
  private turn: NodeJS.Immediate | undefined;
  /** Writes queued when the task that scheduled the waiting commit ended: any more came from other tasks. */
  private queuedByOwnTask = 0;
  /** The number of the last commit that acknowledged writes, until the task it ran in has ended; 0 after. */
  private commitOfThisTask = 0;
  private lonelyTurns = LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE;
  private commitsAtOnce = 0;
  // Bound once: submit and commit run per write. A resolved promise's then() queues the microtask, as
  // queueMicrotask() does, without the AsyncResource that queueMicrotask() creates per call.
  private readonly endOfTaskNext = (): void => process.nextTick(this.endOfTask);
  private readonly endOfTask = (): void => this.taskEnded();
  private readonly afterTurn = (): void => this.turnPassed();
  private readonly forgetCommitOfTaskNext = (): void => process.nextTick(this.forgetCommitOfTask, this.stats.commits);
  private readonly forgetCommitOfTask = (serial: number): void => {
    if (this.commitOfThisTask === serial) this.commitOfThisTask = 0;
  };
  private readonly stats: GroupCommitStats = { commits: 0, writes: 0, waitedForTurn: 0 };
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
   * statements only read, and nothing after that statement throws), so it needs no savepoint. `alone`: the
   * same write as ONE statement in autocommit (no BEGIN, no COMMIT), run instead of `write` when no other
   * write shares the commit; it answers undefined, having changed nothing, when it cannot tell without
   * `write`'s transaction, and `write` then runs as usual.
   */
  submit<T>(write: () => T, oneStatement = false, alone?: () => T | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, oneStatement, alone, resolve: resolve as (value: unknown) => void, reject, outcome: undefined, failed: false });
      if (!this.scheduled) this.schedule();
    });
  }

  /** Commits everything still queued, now (close() needs it before closing the database). */
  flush(): void {
    if (this.turn !== undefined) clearImmediate(this.turn);
    this.turn = undefined;
    this.scheduled = false;
    while (this.queue.length > 0) this.commitBatch(this.nextBatch());
  }

  /** Numbers the write transactions: a write can tell whether it runs in the same one as an earlier write. */
  currentTransaction(): number {
    return this.transactionsBegun;
  }

  currentStats(): GroupCommitStats {
    return { ...this.stats };
  }

  /**
   * Decided now, done at the end of the task: a microtask, then a tick, which runs once every microtask
   * queued meanwhile (the rest of the task's promise callbacks) has run.
   */
  private schedule(): void {
    this.scheduled = true;
    this.atEndOfTask =
      this.commitOfThisTask !== 0 && this.lonelyTurns >= LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE && this.commitsAtOnce < COMMITS_AT_ONCE_BETWEEN_TURNS;
    void settled.then(this.endOfTaskNext);
  }

  private taskEnded(): void {
    // Nothing to do when flush() committed the queue meanwhile, or an earlier call already decided.
    if (!this.scheduled || this.turn !== undefined) return;
    if (this.atEndOfTask) {
      this.commitsAtOnce += 1;
      this.commitScheduled();
      return;
    }
    this.queuedByOwnTask = this.queue.length;
    this.turn = setImmediate(this.afterTurn);
  }

  private turnPassed(): void {
    this.turn = undefined;
    this.stats.waitedForTurn += 1;
    this.commitsAtOnce = 0;
    this.lonelyTurns = this.queue.length > this.queuedByOwnTask ? 0 : this.lonelyTurns + 1;
    this.commitScheduled();
  }

  private commitScheduled(): void {
    this.scheduled = false;
    this.commitBatch(this.nextBatch());
    // More than one commit takes: the rest waits for the turn (not counted as company: it was queued before).
    if (this.queue.length > 0) {
      this.scheduled = true;
      this.atEndOfTask = false;
      this.queuedByOwnTask = this.queue.length;
      this.turn = setImmediate(this.afterTurn);
    }
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
      acknowledged = (batch.length === 1 ? this.runAlone(batch[0] as PendingWrite) : undefined) ?? this.runInTransaction(batch);
    } catch (error) {
      // The transaction failed as a whole: nothing of the batch is stored, every caller is told so.
      for (const pending of batch) pending.reject(error);
      return;
    }
    if (acknowledged > 0) {
      this.stats.commits += 1;
      this.stats.writes += acknowledged;
      // Until this task has ended (its callers' promise callbacks run first), a write submitted follows this commit.
      this.commitOfThisTask = this.stats.commits;
      void settled.then(this.forgetCommitOfTaskNext);
    }
    for (const pending of batch) {
      if (pending.failed) pending.reject(pending.outcome);
      else pending.resolve(pending.outcome);
    }
    if (acknowledged > 0) this.onCommitted();
  }

  /**
   * Runs a lone write as its one autocommit statement, if it offers one and that can tell: answers how many it
   * committed (1, or 0 when the statement failed, SQLite having undone it), or undefined when nothing ran.
   */
  private runAlone(pending: PendingWrite): number | undefined {
    if (pending.alone === undefined) return undefined;
    try {
      const outcome = pending.alone();
      if (outcome === undefined) return undefined;
      pending.outcome = outcome;
      return 1;
    } catch (error) {
      pending.outcome = error;
      pending.failed = true;
      return 0;
    }
  }

  /** Runs the batch's writes in one transaction, each keeping its outcome; answers how many it committed. */
  private runInTransaction(batch: readonly PendingWrite[]): number {
    this.begin.run();
    this.transactionsBegun += 1;
    // A lone write needs no savepoint: if it fails, the whole transaction is rolled back. Nor does a
    // one-statement write (a savepoint and its release cost more CPU than the write itself).
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
