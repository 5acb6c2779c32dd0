// Models are derived data: another layout is dropped and built again, not migrated.
import type { Checkpoints } from './checkpoints.js';
import { createIndexes, createTables, type Projection } from './projection.js';
import { tableExists, type ReadModelDatabase } from './read-model-database.js';

/** Files from before versions were recorded hold every model at its first layout. */
const unrecordedVersion = 1;

export type ModelUpgrade = { projection: string; from: number; to: number };

/** A newer layout is refused rather than rebuilt, so that two versions sharing a file do not rebuild it in turn. */
export function upgradeModels(
  db: ReadModelDatabase,
  projections: readonly Projection[],
  checkpoints: Checkpoints,
  file: string,
): ModelUpgrade[] {
  const current = (projection: Projection): number | undefined =>
    checkpoints.modelVersion(projection.name) ??
    (projection.tables.some((table) => tableExists(db, table.name)) ? unrecordedVersion : undefined);
  if (projections.every((projection) => checkpoints.modelVersion(projection.name) === projection.version)) return [];
  return db
    .transaction((): ModelUpgrade[] => {
      const upgrades: ModelUpgrade[] = [];
      for (const projection of projections) {
        const version = current(projection);
        if (version !== undefined && version > projection.version) {
          throw new Error(
            `${file}: the ${projection.name} read model has layout ${version}, written by a newer Chorus (this one knows ${projection.version}). ` +
              'Run the newer version, or delete the file to build every read model again.',
          );
        }
        if (version !== undefined && version !== projection.version) {
          for (const table of projection.tables) db.exec(`DROP TABLE IF EXISTS ${table.name}`);
          createTables(db, projection);
          createIndexes(db, projection);
          checkpoints.replaceModel(projection.name, undefined);
          upgrades.push({ projection: projection.name, from: version, to: projection.version });
        }
        checkpoints.recordModelVersion(projection.name, projection.version);
      }
      return upgrades;
    })
    .immediate();
}
