// One projection runner: catch-up, live batching and checkpoint commits share one transaction discipline.
// The model's rows and the checkpoint are committed together; once live, the events delivered together share one
// transaction.
import type Database from 'better-sqlite3';
import { inSpan, spanPlaceFor, tracingOn } from '#application';
import {
  EventStoreClosedError,
  InvalidPositionError,
  type EventStore,
  type RecordedEvent,
  type Subscription,
} from '#event-store';
import { Checkpoints, type Checkpoint, type ProjectionFailure, type ProjectionState } from '../checkpoints.js';
import { createIndexes, createTables, liveTableNames, type Projection, type ProjectionWriter } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { silentLogger, type ReadModelsLogger } from '../read-models-logger.js';
import { resetReadModel } from '../reset-read-model.js';
import type { CommitPacing } from '../wal-checkpointer.js';

export type ProjectionRunnerOptions = {
  batchSize?: number;
  logger?: ReadModelsLogger;
  /** Holds commits while the read-model log is checkpointed (the process running the projector). */
  pacing?: CommitPacing;
  liveCommits?: LiveCommits;
};

export type ProjectionStatus = {
  name: string;
  state: ProjectionState;
  checkpoint: bigint | undefined;
  failure: ProjectionFailure | undefined;
};

/** One subscription page: a turn of the event loop holds at most one page and one commit per projection. */
export const defaultBatchSize = 500;
const idleFlushMs = 25;
/** Remembered so that a live event does not read its aggregate back; past this, all are forgotten. */
const maxRemembered = 10_000;
const busyRetryMs = 250;
const resubscribeMs = 1_000;

/** A rebuild swapped the model under the runner. */
class ModelReplaced extends Error {}

export class ProjectionRunner {
  private readonly checkpoints: Checkpoints;
  private readonly writer: ProjectionWriter;
  /** Made once: each `db.transaction()` call builds four wrapper functions, 7-8 us of CPU. */
  private readonly applyInTransaction: Database.Transaction<
    (batch: readonly RecordedEvent[], stored?: Checkpoint) => bigint | undefined
  >;
  private readonly batchSize: number;
  private readonly logger: ReadModelsLogger;
  private readonly pacing: CommitPacing | undefined;
  private readonly listeners = new Set<() => void>();
  private subscription: Subscription | undefined;
  /** Deliveries from a replaced subscription are ignored. */
  private epoch = 0;
  private state: ProjectionState = 'stopped';
  private checkpoint: bigint | undefined;
  private generation = 0n;
  private failure: ProjectionFailure | undefined;
  private pending: RecordedEvent[] = [];
  private live = false;
  private stopping = false;
  private work: Promise<void> = Promise.resolve();
  /** A runner with none may have its live batch committed by LiveCommits. */
  private queued = 0;
  private idleFlush: NodeJS.Timeout | undefined;
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
    this.applyInTransaction = db.transaction((batch: readonly RecordedEvent[], stored?: Checkpoint) =>
      this.applyBatch(batch, stored),
    );
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

  onProgress(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** ReadModels first makes sure the checkpoints are this store's. */
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
    this.logger.info(
      { projection: this.name, checkpoint: stored.position?.toString() ?? null },
      'projection catching up',
    );
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
    if (this.pending.length >= this.batchSize) return this.enqueue(() => this.commitPending());
    if (this.live) {
      // A page is delivered in microtasks: everything appended together is in before it commits.
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

  private enqueue(task: () => void): Promise<void> {
    this.queued += 1;
    this.work = this.work
      .then(() => this.pacing?.beforeCommit())
      .then(() => {
        this.queued -= 1;
        try {
          task();
        } catch (error) {
          this.logger.error({ projection: this.name, err: error }, 'projection runner error');
        }
      });
    return this.work;
  }

  canShareLive(): boolean {
    return this.queued === 0 && !this.stopping && this.live && this.state !== 'failed' && this.pending.length > 0;
  }

  /** `stored`: its checkpoint, read once in that transaction for all the runners. */
  commitLive(stored?: Checkpoint): LivePart {
    clearTimeout(this.idleFlush);
    const batch = this.pending;
    this.pending = [];
    try {
      // A savepoint, so a failing runner undoes only its own part; a batch that only moves the checkpoint is one
      // statement, which SQLite undoes by itself (a savepoint costs 3-5 us of CPU).
      const applied = batch.some((event) => this.projection.handles(event))
        ? this.applyInTransaction(batch, stored)
        : this.applyBatch(batch, stored);
      return { runner: this, batch, applied };
    } catch (error) {
      return { runner: this, batch, error };
    }
  }

  commitAlone(): void {
    void this.enqueue(() => this.commitPending());
  }

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

  private recover(error: unknown, batch: RecordedEvent[]): void {
    this.writer.discard();
    if (error instanceof ModelReplaced) return this.resubscribeAfterSwap();
    if (isBusy(error)) return this.retryLater(batch);
    if (batch.length === 1) return this.fail(error, batch[0] as RecordedEvent);
    this.commitOneByOne(batch);
  }

  /** Everything before the poison event is committed; it stops the projection. */
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

  /** With tracing on, a batch with events for this model is a span: in their command's trace, or linked to theirs. */
  private applyBatch(batch: readonly RecordedEvent[], checkpoint?: Checkpoint): bigint | undefined {
    if (!tracingOn()) return this.applyEvents(batch, checkpoint);
    const handled = batch.filter((event) => this.projection.handles(event));
    if (handled.length === 0) return this.applyEvents(batch, checkpoint);
    const { parent, links } = spanPlaceFor(handled);
    const attributes = {
      'chorus.projection': this.projection.name,
      'chorus.events': batch.length,
      'chorus.events_applied': handled.length,
      'chorus.live': this.live,
    };
    return inSpan(`project ${this.projection.name}`, { parent, links, attributes }, () =>
      this.applyEvents(batch, checkpoint),
    );
  }

  private applyEvents(batch: readonly RecordedEvent[], checkpoint?: Checkpoint): bigint | undefined {
    const stored = checkpoint ?? this.checkpoints.read(this.projection.name);
    if (stored.generation !== this.generation) throw new ModelReplaced();
    // Another projector on the file moved the checkpoint since this runner last committed.
    if (stored.position !== this.checkpoint) this.writer.forget();
    let last = stored.position;
    for (const event of batch) {
      if (last !== undefined && event.position <= last) continue;
      if (this.projection.handles(event)) this.writer.apply(event);
      last = event.position;
    }
    this.writer.flush();
    if (last !== undefined) this.checkpoints.advance(this.projection.name, last);
    return last;
  }

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
    this.failure = {
      message,
      position: event.position,
      eventId: event.id,
      eventType: event.type,
      streamId: event.streamId,
    };
    this.pending = [];
    this.logger.error(
      {
        projection: this.name,
        err: error,
        position: event.position.toString(),
        eventId: event.id,
        eventType: event.type,
        streamId: event.streamId,
      },
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
 * The live batches due in the same turn share ONE transaction: a sign-in costs one read-model commit instead of
 * four, and no checkpoint lags (another process's read-your-writes reads them).
 */
export class LiveCommits {
  private readonly due = new Set<ProjectionRunner>();
  private scheduled: NodeJS.Immediate | undefined;
  private work: Promise<void> = Promise.resolve();
  private readonly checkpoints: Checkpoints;
  private readonly commitParts: Database.Transaction<(runners: readonly ProjectionRunner[], parts: LivePart[]) => void>;

  constructor(
    db: ReadModelDatabase,
    private readonly pacing?: CommitPacing,
  ) {
    this.checkpoints = new Checkpoints(db);
    this.commitParts = db.transaction((runners: readonly ProjectionRunner[], parts: LivePart[]) => {
      const stored = new Map(this.checkpoints.all().map((checkpoint) => [checkpoint.projection, checkpoint]));
      for (const runner of runners) parts.push(runner.commitLive(stored.get(runner.name)));
    });
  }

  schedule(runner: ProjectionRunner): void {
    this.due.add(runner);
    this.scheduled ??= setImmediate(() => {
      this.scheduled = undefined;
      const due = [...this.due];
      this.due.clear();
      // commit() settles every part itself; the catch keeps later commits running should anything else throw.
      this.work = this.work
        .then(() => this.pacing?.beforeLiveCommit())
        .then(() => this.commit(due))
        .catch(() => undefined);
    });
  }

  cancel(runner: ProjectionRunner): void {
    this.due.delete(runner);
  }

  async drained(): Promise<void> {
    while (this.scheduled !== undefined) await new Promise((resolve) => setImmediate(resolve));
    await this.work;
  }

  private commit(due: readonly ProjectionRunner[]): void {
    const runners = due.filter((runner) => runner.canShareLive());
    // Those with work of their own queued commit after it, as they would alone.
    for (const runner of due) if (!runners.includes(runner)) runner.commitAlone();
    if (runners.length === 0) return;
    const parts: LivePart[] = [];
    let transactionError: unknown;
    try {
      this.commitParts.immediate(runners, parts);
    } catch (error) {
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
