// The read side of one process: database, queries, projector, read-your-writes waits, health and rebuild share one
// lifecycle.
import { memberSecurityProjection } from './member-security/member-security.projection.js';
import { MemberSecurityQueries } from './member-security/member-security.queries.js';
import type { PlanCatalogue } from '#domain';
import { EventStoreClosedError, type EventStore } from '#event-store';
import { Checkpoints, type Checkpoint, type ProjectionFailure } from './checkpoints.js';
import { isReady, type ProjectionHealth, type ReadModelsHealth } from './health/read-models-health.js';
import { correlationProjection } from './correlation/correlation.projection.js';
import { organizationProjection } from './organization/organization.projection.js';
import { CorrelationQueries } from './correlation/correlation.queries.js';
import { OrganizationQueries } from './organization/organization.queries.js';
import { organizationHistoryProjection } from './organization-history/organization-history.projection.js';
import { OrganizationHistoryQueries } from './organization-history/organization-history.queries.js';
import { signInsProjection } from './sign-ins/sign-ins.projection.js';
import { SignInQueries } from './sign-ins/sign-ins.queries.js';
import { trafficProjection } from './traffic/traffic.projection.js';
import { TrafficQueries } from './traffic/traffic.queries.js';
import type { Projection } from './projection.js';
import { openReadModelDatabase, readModelsFile, type ReadModelDatabase } from './read-model-database.js';
import { silentLogger, type ReadModelsLogger } from './read-models-logger.js';
import { dropAbandonedRebuilds } from './rebuild/abandoned-rebuilds.js';
import { RebuildLock } from './rebuild/rebuild-lock.js';
import { rebuildReadModels, type RebuildResult } from './rebuild/rebuild-read-models.js';
import type { ReplayProgress } from './rebuild/replay.js';
import { verifyReadModels, type Verification } from './rebuild/verify-read-models.js';
import { QueryCache } from './query-cache.js';
import { PositionWaits, type Progress } from './runner/position-waits.js';
import { WalCheckpointer } from './wal-checkpointer.js';
import { LiveCommits, ProjectionRunner, type ProjectionStatus } from './runner/projection-runner.js';
import { checkStoreIdentity } from './store-identity.js';
import { upgradeModels } from './model-versions.js';

/** inline: this process runs the projector; off: another process sharing DATA_DIR does (PROJECTIONS). */
export type ProjectorMode = 'inline' | 'off';

export type ReadModelsOptions = {
  dataDir: string;
  store: EventStore;
  catalogue: PlanCatalogue;
  logger?: ReadModelsLogger;
};

export type RebuildRequest = {
  /** All when absent. */
  only?: readonly string[];
  onProgress?: (progress: ReplayProgress) => void;
};

export type StartOptions = {
  batchSize?: number;
};

export const READ_MODELS = Symbol('READ_MODELS');

/** How often a process without its own projector re-reads checkpoints while a read waits. */
const checkpointPollMs = 20;
const rebuildLockWaitMs = 5_000;
const lagCountLimit = 1_000;
const identityRetryMs = 1_000;

export class ReadModels {
  readonly organizations: OrganizationQueries;
  readonly correlations: CorrelationQueries;
  readonly signIns: SignInQueries;
  readonly traffic: TrafficQueries;
  readonly history: OrganizationHistoryQueries;
  readonly memberSecurity: MemberSecurityQueries;
  readonly projections: readonly Projection[];
  private readonly checkpoints: Checkpoints;
  private readonly waits: PositionWaits;
  private readonly cache: QueryCache;
  private runners: ProjectionRunner[] = [];
  private checkpointer: WalCheckpointer | undefined;
  private liveCommits: LiveCommits | undefined;
  private storeChecked: Promise<void> = Promise.resolve();

  private constructor(
    private readonly db: ReadModelDatabase,
    /** Nothing writes through it, so its answers can be cached until the next commit (query-cache.ts). */
    private readonly queryDb: ReadModelDatabase,
    private readonly options: ReadModelsOptions,
  ) {
    this.projections = readModelProjections();
    this.checkpoints = new Checkpoints(db);
    const cache = new QueryCache(queryDb);
    this.cache = cache;
    this.organizations = new OrganizationQueries(queryDb, options.catalogue, cache);
    this.correlations = new CorrelationQueries(db);
    this.signIns = new SignInQueries(queryDb, cache);
    this.traffic = new TrafficQueries(queryDb, cache);
    this.history = new OrganizationHistoryQueries(db);
    this.memberSecurity = new MemberSecurityQueries(db);
    // Notified by this process's runners; without them, the checkpoints are re-read while a read waits.
    this.waits = new PositionWaits(
      () => lowest(this.statuses()),
      () => (this.runners.length > 0 ? undefined : checkpointPollMs),
    );
  }

  /** Drops the aside tables of a rebuild that was killed before its swap. */
  static open(options: ReadModelsOptions): ReadModels {
    const db = openReadModelDatabase(options.dataDir);
    const logger = options.logger ?? silentLogger;
    try {
      dropAbandonedRebuilds(db, options.dataDir, logger);
      for (const upgrade of upgradeModels(
        db,
        readModelProjections(),
        new Checkpoints(db),
        readModelsFile(options.dataDir),
      )) {
        logger.warn(upgrade, 'the tables of this read model changed; building it again from the first event');
      }
    } catch (error) {
      db.close();
      throw error;
    }
    return new ReadModels(db, openReadModelDatabase(options.dataDir), options);
  }

  start(options: StartOptions = {}): void {
    if (this.runners.length > 0) return;
    const logger = this.options.logger ?? silentLogger;
    this.checkpointer = WalCheckpointer.start(this.db, readModelsFile(this.options.dataDir), logger);
    const liveCommits = new LiveCommits(this.db, this.checkpointer);
    this.liveCommits = liveCommits;
    this.runners = this.projections.map(
      (projection) =>
        new ProjectionRunner(this.db, this.options.store, projection, {
          logger,
          pacing: this.checkpointer,
          liveCommits,
          ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
        }),
    );
    const runners = this.runners;
    this.storeChecked = this.checkStoreUntilAnswered(runners, logger);
    for (const runner of runners) {
      runner.onProgress(() => this.waits.check());
      runner.start(this.storeChecked);
    }
  }

  async stop(): Promise<void> {
    const runners = this.runners;
    this.runners = [];
    await this.storeChecked;
    await Promise.all(runners.map((runner) => runner.stop()));
    await this.liveCommits?.drained();
    this.liveCommits = undefined;
    const checkpointer = this.checkpointer;
    this.checkpointer = undefined;
    await checkpointer?.stop();
    this.waits.cancelAll();
  }

  /** Only for an answer made from `organizations` and `signIns` alone; it must be immutable. */
  derivedUntilNextCommit<T>(key: string, derive: () => T): T {
    return this.cache.get(`derived ${key}`, derive);
  }

  /** False after timeoutMs or if a projection stopped. */
  waitForPosition(position: bigint, timeoutMs: number): Promise<boolean> {
    return this.waits.wait(position, timeoutMs);
  }

  statuses(): ProjectionStatus[] {
    if (this.runners.length > 0) return this.runners.map((runner) => runner.status());
    return this.projections.map((projection) =>
      fromCheckpoint(projection.name, this.checkpoints.find(projection.name)),
    );
  }

  async health(): Promise<ReadModelsHealth> {
    let reachable = true;
    let storeError: string | undefined;
    let head: bigint | undefined;
    try {
      await this.options.store.ping();
      head = await this.options.store.headPosition();
    } catch (error) {
      reachable = false;
      storeError = error instanceof Error ? error.message : String(error);
    }
    const runs = this.runners.length > 0 ? 'inline' : 'elsewhere';
    const statuses = this.statuses();
    const lags = reachable
      ? await this.lagsOf(
          statuses.map((status) => status.checkpoint),
          head,
        )
      : new Map<bigint | undefined, Lag>();
    const projections = statuses.map((status): ProjectionHealth => {
      const lag = lags.get(status.checkpoint);
      return {
        name: status.name,
        checkpoint: status.checkpoint === undefined ? null : Number(status.checkpoint),
        head: head === undefined ? null : Number(head),
        lag: lag?.events ?? null,
        lagMs: lag?.ms ?? null,
        state: status.state,
        runs,
        ...(status.failure === undefined ? {} : { error: failureHealth(status.failure) }),
      };
    });
    return {
      live: true,
      ready: isReady(reachable, projections),
      eventStore: { reachable, ...(storeError === undefined ? {} : { error: storeError }) },
      projections,
    };
  }

  /**
   * Counted in events, since positions are bytes of the log on EventStoreDB. A checkpoint at the head reads
   * nothing, so a caught-up /health costs one read (the head) instead of one per checkpoint.
   */
  private async lagsOf(
    checkpoints: readonly (bigint | undefined)[],
    head: bigint | undefined,
  ): Promise<Map<bigint | undefined, Lag>> {
    const lags = new Map<bigint | undefined, Lag>();
    try {
      for (const checkpoint of new Set(checkpoints)) {
        if (head === undefined || (checkpoint !== undefined && checkpoint >= head)) {
          lags.set(checkpoint, { events: 0, ms: 0 });
          continue;
        }
        const pending = await this.options.store.readAll({
          ...(checkpoint === undefined ? {} : { fromPosition: checkpoint }),
          maxCount: lagCountLimit,
        });
        const oldest = pending[0];
        lags.set(checkpoint, {
          events: pending.length,
          ms: oldest === undefined ? 0 : Math.max(0, Date.now() - Date.parse(oldest.recordedAt)),
        });
      }
    } catch {
      // The store stopped answering between ping and now: the lag is unknown, like the head.
      lags.clear();
    }
    return lags;
  }

  async rebuild(options: RebuildRequest = {}): Promise<RebuildResult> {
    const projections = this.selected(options.only);
    const storeId = await this.options.store.storeId();
    const recorded = this.checkpoints.storeId();
    const foreign = recorded !== undefined && recorded !== storeId;
    // A model left from the other store would be served next to the rebuilt ones.
    if (foreign && projections.length < this.projections.length) {
      throw new RangeError('The read models were built from another event store: rebuild all of them (without --only)');
    }
    const lock = RebuildLock.acquire(this.options.dataDir, rebuildLockWaitMs);
    if (lock === undefined)
      throw new Error(`Another rebuild of ${readModelsFile(this.options.dataDir)} is running; wait for it to finish.`);
    try {
      return await rebuildReadModels({
        db: this.db,
        store: this.options.store,
        projections,
        storeId,
        servedModelIsForeign: foreign,
        ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      });
    } finally {
      lock.release();
    }
  }

  verify(options: { onProgress?: (progress: ReplayProgress) => void } = {}): Promise<Verification[]> {
    return verifyReadModels({
      db: this.db,
      store: this.options.store,
      projections: this.projections,
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    });
  }

  /** The store stays open: its owner closes it. */
  async close(): Promise<void> {
    await this.stop();
    this.queryDb.close();
    this.db.close();
  }

  /** Checkpoints made against another store mean nothing here: every model is emptied and built again. */
  private async checkStoreUntilAnswered(runners: readonly ProjectionRunner[], logger: ReadModelsLogger): Promise<void> {
    while (this.runners === runners) {
      try {
        const check = await checkStoreIdentity({
          db: this.db,
          store: this.options.store,
          checkpoints: this.checkpoints,
          projections: this.projections,
        });
        if (check.outcome === 'reset') {
          logger.warn(
            { storeId: check.storeId, previousStoreId: check.previous ?? null },
            'the read models were built from another event store; building them again from this one',
          );
        }
        return;
      } catch (error) {
        if (error instanceof EventStoreClosedError) return;
        logger.warn({ err: error }, 'cannot read the event store identity; trying again');
        await new Promise((resolve) => setTimeout(resolve, identityRetryMs));
      }
    }
  }

  private selected(names: readonly string[] | undefined): Projection[] {
    if (names === undefined) return [...this.projections];
    const unknown = names.filter((name) => !this.projections.some((projection) => projection.name === name));
    if (unknown.length > 0) {
      throw new RangeError(
        `No read model ${unknown.join(', ')} (there are ${this.projections.map((projection) => projection.name).join(', ')})`,
      );
    }
    return this.projections.filter((projection) => names.includes(projection.name));
  }
}

type Lag = { events: number; ms: number };

/** Every read model, in the order they are built. */
export function readModelProjections(): Projection[] {
  return [
    organizationProjection(),
    correlationProjection(),
    signInsProjection(),
    organizationHistoryProjection(),
    trafficProjection(),
    memberSecurityProjection(),
  ];
}

function lowest(statuses: readonly ProjectionStatus[]): Progress {
  const stopped = statuses.some((status) => status.state === 'failed');
  const checkpoints = statuses.map((status) => status.checkpoint);
  if (checkpoints.length === 0 || checkpoints.includes(undefined)) return { reached: undefined, stopped };
  const reached = (checkpoints as bigint[]).reduce((low, checkpoint) => (checkpoint < low ? checkpoint : low));
  return { reached, stopped };
}

function fromCheckpoint(name: string, checkpoint: Checkpoint | undefined): ProjectionStatus {
  return {
    name,
    state: checkpoint?.state ?? 'stopped',
    checkpoint: checkpoint?.position,
    failure: checkpoint?.failure,
  };
}

function failureHealth(failure: ProjectionFailure): NonNullable<ProjectionHealth['error']> {
  return { ...failure, position: Number(failure.position) };
}
