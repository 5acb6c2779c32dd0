import { existsSync, fdatasync, fdatasyncSync, openSync, closeSync } from 'node:fs';

/** How the WAL file is synced: Node's fdatasync, which runs in libuv's thread pool; a test may hold it back. */
export type SyncFile = (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void;
/** The same sync on the event loop (Node's fdatasyncSync): see `afterNextSync`. */
export type SyncFileNow = (fd: number) => void;

/** The WAL could not be synced: what its writes meant to the disk is unknown, so the store takes no more. */
export class LogSyncFailedError extends Error {
  constructor(file: string, cause: unknown) {
    super(
      `${file} could not be synced to disk (${(cause as Error).message}): the appends waiting for it were not acknowledged, and this store takes no more writes until Chorus is restarted`,
      { cause },
    );
    this.name = 'LogSyncFailedError';
  }
}

/**
 * The embedded store's commits made durable off the event loop. The connection commits with `synchronous=NORMAL`: the
 * WAL written, not synced. This syncs the WAL file in the thread pool, and only then are the writes of a commit
 * acknowledged and the log's subscriptions shown it. A sync covers every commit made before it began. The group commit
 * holds its writes back while a sync runs and commits them when it ends (`onSyncEnded`); a commit made during one all
 * the same (at close) waits for the next sync. A writer alone has its sync run on the loop instead (`afterNextSync`'s
 * `here`).
 */
export class WalSync {
  private fd: number | undefined;
  private running = false;
  private covered: Array<(error?: Error) => void> = [];
  private waiting: Array<(error?: Error) => void> = [];
  private failure: LogSyncFailedError | undefined;
  private idle: (() => void) | undefined;
  /** Every event up to here is on disk: what subscriptions may deliver. */
  private durable: bigint;
  private readonly syncHere: SyncFile;
  /** A sync is wanted for another process's commits: the head must be read from the file. */
  private exactHeadWanted = false;

  constructor(
    private readonly walFile: string,
    /**
     * The log's head: what a sync begun now will cover. `exact`: as in the file, other processes' commits included;
     * otherwise this connection's own last commit will do (a lower bound, and no query).
     */
    private readonly head: (exact: boolean) => bigint,
    /** A sync moved the durable head. */
    private readonly onDurable: () => void,
    /** A sync ended and its writers were answered: writes held back while it ran may commit. */
    private readonly onSyncEnded: () => void,
    private readonly syncFile: SyncFile = fdatasync,
    syncFileNow: SyncFileNow = fdatasyncSync,
  ) {
    this.syncHere = (fd, done) => {
      try {
        syncFileNow(fd);
      } catch (error) {
        done(error as NodeJS.ErrnoException);
        return;
      }
      done(null);
    };
    // A process that stopped may have left commits its syncs never covered: they are synced before anyone reads them.
    if (existsSync(walFile)) fdatasyncSync(this.fdOf());
    this.durable = head(true);
  }

  syncing(): boolean {
    return this.running;
  }

  durableHead(): bigint {
    return this.durable;
  }

  /**
   * Everything committed so far on disk before this returns: for a reader that starts (a new subscription), which
   * should see every commit made before it, another process's included. It blocks, so only where that is rare.
   */
  syncNow(): void {
    this.assertHealthy();
    const head = this.head(true);
    if (head <= this.durable) return;
    try {
      fdatasyncSync(this.fdOf());
    } catch (error) {
      throw this.failed(error);
    }
    this.durable = head;
  }

  /** Refuses a write once a sync has failed. */
  assertHealthy(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  /**
   * `settle` runs once a sync begun after now has ended: with its error when it failed. `here`: the sync runs on the
   * event loop, for a writer with no company expected, to whom the thread pool's round trip costs more than the sync it
   * saves the loop (nothing else waits on the loop meanwhile).
   */
  afterNextSync(settle: (error?: Error) => void, here = false): void {
    if (this.failure !== undefined) {
      settle(this.failure);
      return;
    }
    this.waiting.push(settle);
    if (!this.running) this.start(here ? this.syncHere : this.syncFile);
  }

  /** Another process committed: a sync, so that subscriptions here may deliver what it wrote. */
  request(): void {
    this.exactHeadWanted = true;
    this.afterNextSync(() => undefined);
  }

  /** Resolves once no sync runs and none is waited for. */
  async drained(): Promise<void> {
    if (!this.running) return;
    await new Promise<void>((resolve) => (this.idle = resolve));
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private start(sync: SyncFile = this.syncFile): void {
    this.covered = this.waiting;
    this.waiting = [];
    let head: bigint;
    let fd: number;
    try {
      head = this.head(this.exactHeadWanted);
      this.exactHeadWanted = false;
      fd = this.fdOf();
    } catch (error) {
      this.failed(error);
      return;
    }
    this.running = true;
    sync(fd, (error) => {
      this.running = false;
      if (error !== null) {
        this.failed(error);
        return;
      }
      if (head > this.durable) {
        this.durable = head;
        this.onDurable();
      }
      for (const settle of this.covered) settle();
      this.covered = [];
      this.onSyncEnded();
      if (this.running) return;
      if (this.waiting.length > 0) this.start();
      else this.wentIdle();
    });
  }

  private failed(error: unknown): LogSyncFailedError {
    const failure = new LogSyncFailedError(this.walFile, error);
    this.failure = failure;
    for (const settle of [...this.covered, ...this.waiting]) settle(failure);
    this.covered = [];
    this.waiting = [];
    // The writes held back for this sync commit, and are answered with its failure.
    this.onSyncEnded();
    this.wentIdle();
    return failure;
  }

  private wentIdle(): void {
    const idle = this.idle;
    this.idle = undefined;
    idle?.();
  }

  /**
   * Opened once: the file stays the same while this connection is open (SQLite deletes it only when the last
   * connection closes, and restarts it in place after a checkpoint), and a sync of any descriptor of it syncs it.
   */
  private fdOf(): number {
    this.fd ??= openSync(this.walFile, 'r');
    return this.fd;
  }
}
