// Built aside, then swapped in by one transaction: a running server reads the old models or the new ones, never half of
// one.
import type { EventStore } from '#event-store';
import { Checkpoints } from '../checkpoints.js';
import { createIndexes, createTables, physicalName, type Projection, type TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';
import { replay, type ReplayProgress, type ReplayResult, type ReplayTarget } from './replay.js';

export type RebuildOptions = {
  db: ReadModelDatabase;
  store: EventStore;
  projections: readonly Projection[];
  onProgress?: (progress: ReplayProgress) => void;
  memoryBudget?: number;
  storeId?: string;
  /** The new model need not catch up to checkpoints made against another store. */
  servedModelIsForeign?: boolean;
};

export type RebuildResult = { projections: string[]; position: bigint | undefined; events: number; elapsedMs: number };

export const asideSuffix = '__rebuild';

export async function rebuildReadModels(options: RebuildOptions): Promise<RebuildResult> {
  const { db, projections } = options;
  const started = performance.now();
  const targets: ReplayTarget[] = projections.map((projection) => ({
    projection,
    tables: new Map(projection.tables.map((table) => [table.name, `${table.name}${asideSuffix}`])),
  }));
  const dropAside = (): void => {
    for (const { tables } of targets) for (const table of tables.values()) db.exec(`DROP TABLE IF EXISTS ${table}`);
  };
  // Another process (a server dropping what a killed rebuild left) sees every aside table or none.
  db.transaction(() => {
    dropAside();
    for (const { projection, tables } of targets) createTables(db, projection, tables);
  })();
  try {
    const built = await replay({
      db,
      store: options.store,
      targets: targets.map((target) => ({ ...target, startsEmpty: true })),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      ...(options.memoryBudget === undefined ? {} : { memoryBudget: options.memoryBudget }),
    });
    const swapped = await swap(targets, built, options);
    return {
      projections: projections.map((projection) => projection.name),
      ...swapped,
      elapsedMs: performance.now() - started,
    };
  } catch (error) {
    dropAside();
    throw error;
  }
}

async function swap(
  targets: readonly ReplayTarget[],
  built: ReplayResult,
  options: RebuildOptions,
): Promise<ReplayResult> {
  const { db, store } = options;
  const checkpoints = new Checkpoints(db);
  for (const { projection } of targets) checkpoints.read(projection.name);
  // The write lock keeps a live projector from committing between the last catch-up and the swap.
  db.exec('BEGIN IMMEDIATE');
  try {
    let { position, events } = built;
    const served =
      options.servedModelIsForeign === true
        ? undefined
        : highest(targets.map(({ projection }) => checkpoints.read(projection.name).position));
    // Never swap in a model behind the one being served: a client may already have read past it.
    if (served !== undefined && (position === undefined || position < served)) {
      const tail = await replay({ db, store, targets, fromPosition: position, toPosition: served });
      position = tail.position;
      events += tail.events;
    }
    for (const { projection, tables } of targets) replaceTables(db, projection, tables);
    for (const { projection } of targets) {
      checkpoints.replaceModel(projection.name, position);
      checkpoints.recordModelVersion(projection.name, projection.version);
    }
    if (options.storeId !== undefined) checkpoints.recordStoreId(options.storeId);
    db.exec('COMMIT');
    return { position, events };
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function replaceTables(db: ReadModelDatabase, projection: Projection, aside: TableNames): void {
  for (const table of projection.tables) {
    db.exec(`DROP TABLE IF EXISTS ${table.name}`);
    db.exec(`ALTER TABLE ${physicalName(aside, table.name)} RENAME TO ${table.name}`);
  }
  createIndexes(db, projection);
}

function highest(positions: readonly (bigint | undefined)[]): bigint | undefined {
  let top: bigint | undefined;
  for (const position of positions) if (position !== undefined && (top === undefined || position > top)) top = position;
  return top;
}
