import type Database from 'better-sqlite3';

type PendingWrite = {
  readonly write: () => unknown;
  /** The write changes the database in one statement at most: SQLite's statement rollback undoes it alone. */
  readonly oneStatement: boolean;
  /** The same write as one autocommit statement, for when it is alone in its commit; see `submit`. */
  readonly alone: (() => unknown) | undefined;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  /** What the write returned, or threw when `failed`. */
  outcome: unknown;
  failed: boolean;
};

export type GroupCommitStats = {
  commits: number;
  writes: number;
  /** Commits that waited for the event loop's turn, for other tasks' writes to join. */
  waitedForTurn: number;
};

/**
 * A writer awaiting append after append never leaves its task: without a turn now and then, timers and I/O would wait.
 */
export const COMMITS_AT_ONCE_BETWEEN_TURNS = 8;
/**
 * Waited turns in a row that no other task joined, after which a writer following its own commit stops waiting for the
 * turn.
 */
export const LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE = 4;

const settled = Promise.resolve();

/**
 * Writes submitted together share ONE transaction; each runs in its own savepoint, so one that throws undoes only
 * itself, and every caller is settled only once the commit is on disk (`afterSync`, which commits made meanwhile share).
 * A commit runs at the end of the submitting task, so a task's writes (Promise.all) share it, and waits for the
 * event loop's turn so other tasks' writes join it, unless no company is expected (as PostgreSQL's commit_delay
 * waits only with commit_siblings): the writer was awaiting its own last commit and recent turns stayed lonely.
 */
export class GroupCommit {
  private queue: PendingWrite[] = [];
  private scheduled = false;
  /** Writes were due while a sync ran: they commit when it ends. */
  private waitingForSync = false;
  private atEndOfTask = false;
  /** The scheduled commit is of a writer awaiting its own commits, whom no other task joined lately. */
  private lonely = false;
  private turn: NodeJS.Immediate | undefined;
  /** Any write queued after these came from other tasks. */
  private queuedByOwnTask = 0;
  /** 0 once the task that acknowledged the last commit's writes has ended. */
  private commitOfThisTask = 0;
  private lonelyTurns = LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE;
  private commitsAtOnce = 0;
  // Bound once, and then() over queueMicrotask(): it creates no AsyncResource per call.
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
    /** Right after COMMIT, before the commit is on disk. */
    private readonly onCommitted: () => void,
    /** A write that had returned was rolled back. */
    private readonly onUndone: () => void,
    /**
     * Runs `settle` once the commit just made is on disk: its writers are answered only then. `here`: no company is
     * expected, so the sync may run on the event loop.
     */
    private readonly afterSync: (settle: (failure?: Error) => void, here: boolean) => void,
    /** Whether a sync runs now: see `syncEnded`. */
    private readonly syncing: () => boolean,
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
   * `oneStatement`: the write changes the database in one statement at most and nothing throws after it, so it needs no
   * savepoint.
   * `alone`: the same write in autocommit, run when no other write shares the commit; undefined means "cannot tell",
   * run `write`.
   */
  submit<T>(write: () => T, oneStatement = false, alone?: () => T | undefined): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        write,
        oneStatement,
        alone,
        resolve: resolve as (value: unknown) => void,
        reject,
        outcome: undefined,
        failed: false,
      });
      if (!this.scheduled) this.schedule();
    });
  }

  flush(): void {
    if (this.turn !== undefined) clearImmediate(this.turn);
    this.turn = undefined;
    this.scheduled = false;
    while (this.queue.length > 0) this.commitBatch(this.nextBatch(), false);
  }

  currentTransaction(): number {
    return this.transactionsBegun;
  }

  currentStats(): GroupCommitStats {
    return { ...this.stats };
  }

  /** A microtask, then a tick: it runs after every promise callback the task queued meanwhile. */
  private schedule(): void {
    this.scheduled = true;
    this.atEndOfTask =
      this.commitOfThisTask !== 0 &&
      this.lonelyTurns >= LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE &&
      this.commitsAtOnce < COMMITS_AT_ONCE_BETWEEN_TURNS;
    this.lonely = this.atEndOfTask;
    void settled.then(this.endOfTaskNext);
  }

  private taskEnded(): void {
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
    this.lonelyTurns = this.queue.length > this.queuedByOwnTask ? 0 : this.lonelyTurns + 1;
    // The turn a writer awaiting its own commits is given now and then: if it stayed lonely, so is the commit.
    this.lonely =
      this.commitsAtOnce >= COMMITS_AT_ONCE_BETWEEN_TURNS && this.lonelyTurns >= LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE;
    this.commitsAtOnce = 0;
    this.commitScheduled();
  }

  /**
   * The running sync ended: what waited for it commits together, at the end of this task (the writers it just answered
   * may append again in it).
   */
  syncEnded(): void {
    if (!this.waitingForSync) return;
    this.waitingForSync = false;
    if (this.queue.length === 0 || this.scheduled) return;
    this.scheduled = true;
    this.atEndOfTask = true;
    this.lonely = false;
    void settled.then(this.endOfTaskNext);
  }

  private commitScheduled(): void {
    this.scheduled = false;
    // Committed now, it would be answered by the sync after the running one all the same: it waits for the running one
    // to end, and what comes meanwhile shares its commit. So a commit costs its COMMIT once per sync at most.
    if (this.syncing()) {
      this.waitingForSync = true;
      return;
    }
    this.commitBatch(this.nextBatch(), this.lonely);
    this.lonely = false;
    // Not counted as company: it was queued before.
    if (this.queue.length > 0) {
      this.scheduled = true;
      this.atEndOfTask = false;
      this.queuedByOwnTask = this.queue.length;
      this.turn = setImmediate(this.afterTurn);
    }
  }

  private nextBatch(): PendingWrite[] {
    if (this.queue.length > this.maxWritesPerCommit) return this.queue.splice(0, this.maxWritesPerCommit);
    const batch = this.queue;
    this.queue = [];
    return batch;
  }

  private commitBatch(batch: readonly PendingWrite[], lonely: boolean): void {
    let acknowledged: number;
    try {
      acknowledged =
        (batch.length === 1 ? this.runAlone(batch[0] as PendingWrite) : undefined) ?? this.runInTransaction(batch);
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    if (acknowledged === 0) {
      this.settle(batch);
      return;
    }
    this.stats.commits += 1;
    this.stats.writes += acknowledged;
    this.onCommitted();
    this.afterSync((failure) => {
      if (failure === undefined) {
        // A write its caller issues in the task this answer starts is a writer awaiting its own commits.
        this.commitOfThisTask = this.stats.commits;
        void settled.then(this.forgetCommitOfTaskNext);
      }
      this.settle(batch, failure);
    }, lonely);
  }

  /** `failure`: the sync of the commit failed, so none of its writes is acknowledged. */
  private settle(batch: readonly PendingWrite[], failure?: Error): void {
    for (const pending of batch) {
      if (pending.failed) pending.reject(pending.outcome);
      else if (failure !== undefined) pending.reject(failure);
      else pending.resolve(pending.outcome);
    }
  }

  /** How many it committed (0 when the statement failed), or undefined when nothing ran. */
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

  private runInTransaction(batch: readonly PendingWrite[]): number {
    this.begin.run();
    this.transactionsBegun += 1;
    // A lone write's failure rolls back the whole transaction; a one-statement write costs less than a savepoint.
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
      else {
        this.rollback.run();
        // A write that failed part way (a multi-stream append whose later part conflicts) left the earlier parts' heads.
        this.onUndone();
      }
      return succeeded;
    } catch (error) {
      this.onUndone();
      if (this.db.inTransaction) this.rollback.run();
      throw error;
    }
  }
}
