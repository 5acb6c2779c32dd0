/* eslint-disable max-lines -- one projection runner: catch-up, live batching and checkpoint commits share one transaction discipline. */
// Runs one projection on the store's $all subscription: the model's rows and the checkpoint are
// committed together, many events per transaction while catching up, and, once live, the events
// delivered together (one group commit of the store, one page) in one transaction, which the runners
// sharing a LiveCommits (the projector's four) share too.
import type Database from 'better-sqlite3';
import { EventStoreClosedError, InvalidPositionError, type EventStore, type RecordedEvent, type Subscription } from '#event-store';
import { Checkpoints, type Checkpoint, type ProjectionFailure, type ProjectionState } from '../checkpoints.js';
import { createIndexes, createTables, liveTableNames, type Projection, type ProjectionWriter } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { silentLogger, type ReadModelsLogger } from '../read-models-logger.js';
import { resetReadModel } from '../reset-read-model.js';
import type { CommitPacing } from '../wal-checkpointer.js';

export type ProjectionRunnerOptions = {
  /** Events per transaction while catching up. */
  batchSize?: number;
  logger?: ReadModelsLogger;
  /** Holds commits while the read-model log is checkpointed (the process running the projector). */
  pacing?: CommitPacing;
  /** Shared by the runners on one connection: their live batches due in the same turn share one transaction. */
  liveCommits?: LiveCommits;
};

export type ProjectionStatus = {
  name: string;
  state: ProjectionState;
  /** Last global position applied (undefined: none yet). */
  checkpoint: bigint | undefined;
  failure: ProjectionFailure | undefined;
};

/** One subscription page: a turn of the event loop holds at most one page and one commit per projection. */
export const defaultBatchSize = 500;
/** A catch-up batch that stops growing is committed after this pause. */
const idleFlushMs = 25;
/**
 * Aggregates the writer may remember between commits (so a live event does not read its aggregate
 * back from the table); past this it forgets them all and reads again what it needs.
 */
const maxRemembered = 10_000;
/** Pause before retrying when another writer held the database past its busy timeout. */
const busyRetryMs = 250;
/** Pause before subscribing again after the subscription dropped (store restarted, network). */
const resubscribeMs = 1_000;

/** Thrown inside a transaction when a rebuild swapped the model under the runner. */
class ModelReplaced extends Error {}

export class ProjectionRunner {
  private readonly checkpoints: Checkpoints;
  private readonly writer: ProjectionWriter;
  /**
   * applyBatch in a transaction (a savepoint inside LiveCommits' one), made once: each `db.transaction()`
   * call builds four wrapper functions and defines their properties, 7-8 us of CPU.
   */
  private readonly applyInTransaction: Database.Transaction<(batch: readonly RecordedEvent[], stored?: Checkpoint) => bigint | undefined>;
  private readonly batchSize: number;
  private readonly logger: ReadModelsLogger;
  private readonly pacing: CommitPacing | undefined;
  private readonly listeners = new Set<() => void>();
  private subscription: Subscription | undefined;
  /** Counts subscriptions, so deliveries from a replaced one are ignored. */
  private epoch = 0;
  private state: ProjectionState = 'stopped';
  private checkpoint: bigint | undefined;
  private generation = 0n;
  private failure: ProjectionFailure | undefined;
  private pending: RecordedEvent[] = [];
  private live = false;
  private stopping = false;
  private work: Promise<void> = Promise.resolve();
  /** Tasks enqueued and not yet run: a runner with none may have its live batch committed by LiveCommits. */
  private queued = 0;
  private idleFlush: NodeJS.Timeout | undefined;
  /** A live batch is committed once the events delivered in this turn of the event loop are in it. */
  private readonly liveCommits: LiveCommits;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: ReadModelDatabase,
    private readonly store: EventStore,
    private readonly projection: Projection,
    options: ProjectionRunnerOptions = {},
  ) {
    this.checkpoints = new Checkpoints(db);
    createTables(db, projection);
    createIndexes(db, projection);
    this.writer = projection.writer(db, liveTableNames(projection));
    this.applyInTransaction = db.transaction((batch: readonly RecordedEvent[], stored?: Checkpoint) => this.applyBatch(batch, stored));
    this.batchSize = options.batchSize ?? defaultBatchSize;
    this.logger = options.logger ?? silentLogger;
    this.pacing = options.pacing;
    this.liveCommits = options.liveCommits ?? new LiveCommits(db, options.pacing);
  }

  get name(): string {
    return this.projection.name;
  }

  status(): ProjectionStatus {
    return { name: this.projection.name, state: this.state, checkpoint: this.checkpoint, failure: this.failure };
  }

  /** Called after every commit and state change (read-your-writes waits listen here). */
  onProgress(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts; catching up begins once `when` resolves (ReadModels first makes sure the checkpoints are this store's). */
  start(when: Promise<unknown> = Promise.resolve()): void {
    this.stopping = false;
    this.failure = undefined;
    this.setState('catching-up');
    const epoch = ++this.epoch;
    void when.then(() => {
      if (epoch === this.epoch && !this.stopping) this.subscribe();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.idleFlush);
    this.liveCommits.cancel(this);
    clearTimeout(this.retry);
    const subscription = this.subscription;
    this.subscription = undefined;
    this.epoch += 1;
    await subscription?.close();
    await this.work;
    if (this.state !== 'failed') {
      this.commitPending();
      this.setState('stopped');
    }
  }

  private subscribe(): void {
    const stored = this.checkpoints.read(this.projection.name);
    this.checkpoint = stored.position;
    this.generation = stored.generation;
    this.pending = [];
    // Another process may have written the model since this runner last did.
    this.writer.discard();
    this.live = false;
    this.setState('catching-up');
    this.logger.info({ projection: this.name, checkpoint: stored.position?.toString() ?? null }, 'projection catching up');
    const epoch = ++this.epoch;
    const current = (): boolean => epoch === this.epoch && !this.stopping;
    this.subscription = this.store.subscribeToAll({
      ...(stored.position === undefined ? {} : { fromPosition: stored.position }),
      onEvent: (event) => (current() ? this.receive(event) : undefined),
      onCaughtUp: () => {
        if (current()) void this.enqueue(() => this.caughtUp());
      },
      onError: (error) => {
        if (current()) this.subscriptionDropped(error);
      },
    });
  }

  private receive(event: RecordedEvent): Promise<void> | undefined {
    if (this.state === 'failed') return undefined;
    this.pending.push(event);
    // A full batch is committed before the subscription delivers more (it awaits the commit).
    if (this.pending.length >= this.batchSize) return this.enqueue(() => this.commitPending());
    if (this.live) {
      // The subscription delivers a page in microtasks: everything appended together is in before it commits.
      this.liveCommits.schedule(this);
      return undefined;
    }
    clearTimeout(this.idleFlush);
    this.idleFlush = setTimeout(() => void this.enqueue(() => this.commitPending()), idleFlushMs);
    this.idleFlush.unref();
    return undefined;
  }

  private caughtUp(): void {
    this.commitPending();
    if (this.state !== 'catching-up') return;
    this.live = true;
    this.setState('live');
    this.logger.info({ projection: this.name, checkpoint: this.checkpoint?.toString() ?? null }, 'projection live');
  }

  /** Serializes commits: deliveries, the idle flush and caught-up never interleave. */
  private enqueue(task: () => void): Promise<void> {
    this.queued += 1;
    this.work = this.work.then(() => this.pacing?.beforeCommit()).then(() => {
      this.queued -= 1;
      try {
        task();
      } catch (error) {
        this.logger.error({ projection: this.name, err: error }, 'projection runner error');
      }
    });
    return this.work;
  }

  /** Whether LiveCommits may commit its batch now: live, with nothing of its own queued before it. */
  canShareLive(): boolean {
    return this.queued === 0 && !this.stopping && this.live && this.state !== 'failed' && this.pending.length > 0;
  }

  /**
   * Inside LiveCommits' transaction (after canShareLive): this runner's live batch, in a savepoint.
   * `stored`: its checkpoint as read in that transaction (one read for all the runners), if it has one.
   */
  commitLive(stored?: Checkpoint): LivePart {
    clearTimeout(this.idleFlush);
    const batch = this.pending;
    this.pending = [];
    try {
      // Inside LiveCommits' transaction: a savepoint, so a failing runner undoes only its own part. A batch
      // the projection only counts past (most of a sign-in's events, for most projections) writes one
      // statement, its checkpoint, which SQLite undoes by itself if it fails: it needs no savepoint (two
      // statements more, 3-5 us of CPU).
      const applied = batch.some((event) => this.projection.handles(event)) ? this.applyInTransaction(batch, stored) : this.applyBatch(batch, stored);
      return { runner: this, batch, applied };
    } catch (error) {
      return { runner: this, batch, error };
    }
  }

  /** Commits what it holds in a transaction of its own, after the work it has queued. */
  commitAlone(): void {
    void this.enqueue(() => this.commitPending());
  }

  /** After LiveCommits' transaction: what this runner's part became. */
  settleLive(part: LivePart, transactionError: unknown): void {
    const error = transactionError ?? part.error;
    try {
      if (error === undefined) this.committed(part.applied);
      else this.recover(error, part.batch);
    } catch (unexpected) {
      this.logger.error({ projection: this.name, err: unexpected }, 'projection runner error');
    }
  }

  private commitPending(): void {
    clearTimeout(this.idleFlush);
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0 || this.state === 'failed') return;
    try {
      this.commit(batch);
    } catch (error) {
      this.recover(error, batch);
    }
  }

  /** A batch whose transaction failed: nothing of it is in the model. */
  private recover(error: unknown, batch: RecordedEvent[]): void {
    this.writer.discard();
    if (error instanceof ModelReplaced) return this.resubscribeAfterSwap();
    if (isBusy(error)) return this.retryLater(batch);
    if (batch.length === 1) return this.fail(error, batch[0] as RecordedEvent);
    this.commitOneByOne(batch);
  }

  /** Finds the poison event of a failed batch: everything before it is committed, it stops the projection. */
  private commitOneByOne(batch: RecordedEvent[]): void {
    for (const event of batch) {
      try {
        this.commit([event]);
      } catch (error) {
        this.writer.discard();
        if (error instanceof ModelReplaced) return this.resubscribeAfterSwap();
        if (isBusy(error)) return this.retryLater(batch.slice(batch.indexOf(event)));
        return this.fail(error, event);
      }
    }
  }

  private commit(batch: readonly RecordedEvent[]): void {
    const applied = this.applyInTransaction.immediate(batch);
    this.committed(applied);
    this.pacing?.afterCommit();
  }

  /** The batch's rows and the checkpoint, inside the caller's transaction; returns the checkpoint it wrote. */
  private applyBatch(batch: readonly RecordedEvent[], checkpoint?: Checkpoint): bigint | undefined {
    const stored = checkpoint ?? this.checkpoints.read(this.projection.name);
    if (stored.generation !== this.generation) throw new ModelReplaced();
    // What the writer remembers is the model as this runner last committed it; another projector
    // on the file moved the checkpoint since: read the tables again.
    if (stored.position !== this.checkpoint) this.writer.forget();
    let last = stored.position;
    for (const event of batch) {
      // At or below the checkpoint: already in the model (a replay, or a second projector).
      if (last !== undefined && event.position <= last) continue;
      if (this.projection.handles(event)) this.writer.apply(event);
      last = event.position;
    }
    this.writer.flush();
    if (last !== undefined) this.checkpoints.advance(this.projection.name, last);
    return last;
  }

  /** Once the transaction holding the batch is committed: read-your-writes may answer from it. */
  private committed(applied: bigint | undefined): void {
    if (this.writer.remembered > maxRemembered) this.writer.forget();
    this.checkpoint = applied;
    this.notify();
  }

  private retryLater(batch: RecordedEvent[]): void {
    this.pending = batch.concat(this.pending);
    this.logger.warn({ projection: this.name }, 'read-model database busy, retrying');
    this.retry = setTimeout(() => void this.enqueue(() => this.commitPending()), busyRetryMs);
  }

  private resubscribeAfterSwap(): void {
    this.logger.info({ projection: this.name }, 'read model was rebuilt; resuming from its checkpoint');
    this.replaceSubscription();
  }

  private subscriptionDropped(error: Error): void {
    if (error instanceof EventStoreClosedError) {
      this.logger.info({ projection: this.name }, 'event store closed; projection stopped');
      this.setState('stopped');
      return;
    }
    if (error instanceof InvalidPositionError) {
      // The model holds events this store does not have (another store's, or a copy that went further).
      this.logger.error(
        { projection: this.name, err: error, checkpoint: this.checkpoint?.toString() ?? null },
        "checkpoint is not a position of this event store's log; building the read model again from the first event",
      );
      void this.enqueue(() => this.rebuildFromStart());
      return;
    }
    this.logger.error({ projection: this.name, err: error }, 'subscription dropped; subscribing again');
    this.retry = setTimeout(() => {
      if (!this.stopping && this.state !== 'failed') void this.enqueue(() => this.replaceSubscription());
    }, resubscribeMs);
  }

  private rebuildFromStart(): void {
    if (this.stopping || this.state === 'failed') return;
    this.db.transaction(() => resetReadModel(this.db, this.projection, this.checkpoints)).immediate();
    this.replaceSubscription();
  }

  private replaceSubscription(): void {
    const previous = this.subscription;
    this.subscription = undefined;
    this.writer.discard();
    // Not awaited: close() waits for the running delivery, which may be the caller.
    void previous?.close().catch(() => undefined);
    this.subscribe();
  }

  private fail(error: unknown, event: RecordedEvent): void {
    const message = error instanceof Error ? error.message : String(error);
    this.failure = { message, position: event.position, eventId: event.id, eventType: event.type, streamId: event.streamId };
    this.pending = [];
    this.logger.error(
      { projection: this.name, err: error, position: event.position.toString(), eventId: event.id, eventType: event.type, streamId: event.streamId },
      'projection stopped at an event it cannot apply',
    );
    this.setState('failed');
    const subscription = this.subscription;
    this.subscription = undefined;
    this.epoch += 1;
    void subscription?.close().catch(() => undefined);
  }

  private setState(state: ProjectionState): void {
    this.state = state;
    try {
      this.checkpoints.record(this.projection.name, state, state === 'failed' ? this.failure : undefined);
    } catch (error) {
      this.logger.warn({ projection: this.name, err: error }, 'could not record the projection state');
    }
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}

type LivePart = { runner: ProjectionRunner; batch: RecordedEvent[]; applied?: bigint | undefined; error?: unknown };

/**
 * The live commits of the runners on one connection: the batches due in the same turn of the event loop
 * (a group commit of the store reaches every projection in the same turn) are committed in ONE
 * transaction, each runner's part in a savepoint of its own. A sign-in's events, which three of the four
 * projections only count past, cost one read-model commit instead of four. The checkpoints of all of
 * them advance in that commit, so none lags (another process's read-your-writes reads them).
 */
export class LiveCommits {
  private readonly due = new Set<ProjectionRunner>();
  private scheduled: NodeJS.Immediate | undefined;
  private work: Promise<void> = Promise.resolve();
  private readonly checkpoints: Checkpoints;
  /** The shared transaction, made once (see ProjectionRunner.applyInTransaction): each runner's part in it, in a savepoint of its own. */
  private readonly commitParts: Database.Transaction<(runners: readonly ProjectionRunner[], parts: LivePart[]) => void>;

  constructor(
    db: ReadModelDatabase,
    private readonly pacing?: CommitPacing,
  ) {
    this.checkpoints = new Checkpoints(db);
    this.commitParts = db.transaction((runners: readonly ProjectionRunner[], parts: LivePart[]) => {
      // One read of every checkpoint for all the runners, in the transaction their parts are written in.
      const stored = new Map(this.checkpoints.all().map((checkpoint) => [checkpoint.projection, checkpoint]));
      for (const runner of runners) parts.push(runner.commitLive(stored.get(runner.name)));
    });
  }

  /** The runner holds live events: they are committed in the next turn, with the other runners' due then. */
  schedule(runner: ProjectionRunner): void {
    this.due.add(runner);
    this.scheduled ??= setImmediate(() => {
      this.scheduled = undefined;
      const due = [...this.due];
      this.due.clear();
      // commit() settles every runner's part itself (their errors are logged there); the catch keeps the
      // chain going should anything else throw, so that later commits still run.
      this.work = this.work
        .then(() => this.pacing?.beforeLiveCommit())
        .then(() => this.commit(due))
        .catch(() => undefined);
    });
  }

  cancel(runner: ProjectionRunner): void {
    this.due.delete(runner);
  }

  /** Settles once every commit scheduled so far has run. */
  async drained(): Promise<void> {
    while (this.scheduled !== undefined) await new Promise((resolve) => setImmediate(resolve));
    await this.work;
  }

  private commit(due: readonly ProjectionRunner[]): void {
    const runners = due.filter((runner) => runner.canShareLive());
    // Those with work of their own queued (a full batch, a retry) commit after it, as they would alone.
    for (const runner of due) if (!runners.includes(runner)) runner.commitAlone();
    if (runners.length === 0) return;
    const parts: LivePart[] = [];
    let transactionError: unknown;
    try {
      this.commitParts.immediate(runners, parts);
    } catch (error) {
      // BEGIN or COMMIT failed (busy past the timeout, I/O): no part is in the model.
      transactionError = error;
    }
    if (parts.length > 0 && transactionError === undefined) this.pacing?.afterCommit();
    for (const part of parts) part.runner.settleLive(part, transactionError);
    if (transactionError !== undefined) {
      // Runners the failed transaction did not reach still hold their batch.
      for (const runner of runners) if (!parts.some((part) => part.runner === runner)) runner.commitAlone();
    }
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code === 'SQLITE_BUSY_SNAPSHOT';
}
