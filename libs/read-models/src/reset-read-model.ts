import type { Checkpoints } from './checkpoints.js';
import { createTables, type Projection } from './projection.js';
import type { ReadModelDatabase } from './read-model-database.js';

/** The new generation makes a runner on the same file resubscribe from the start. */
export function resetReadModel(db: ReadModelDatabase, projection: Projection, checkpoints: Checkpoints): void {
  createTables(db, projection);
  for (const table of projection.tables) db.exec(`DELETE FROM ${table.name}`);
  checkpoints.replaceModel(projection.name, undefined);
}
