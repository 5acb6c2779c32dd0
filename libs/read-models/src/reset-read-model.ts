// Forgets a read model: its rows and its checkpoint, so that it is built again from the first event.
import type { Checkpoints } from './checkpoints.js';
import { createTables, type Projection } from './projection.js';
import type { ReadModelDatabase } from './read-model-database.js';

/**
 * Empties the projection's live tables and clears its checkpoint with a new generation (a runner on the
 * same file resubscribes from the start when it sees it). Runs in the caller's transaction.
 */
export function resetReadModel(db: ReadModelDatabase, projection: Projection, checkpoints: Checkpoints): void {
  createTables(db, projection);
  for (const table of projection.tables) db.exec(`DELETE FROM ${table.name}`);
  checkpoints.replaceModel(projection.name, undefined);
}
