// Checkpoints are positions in one event store's log: against another store they name other events,
// or none. Before a projector starts, the store it reads must be the one the checkpoints came from.
import type { EventStore } from '#event-store';
import type { Checkpoints } from './checkpoints.js';
import type { Projection } from './projection.js';
import type { ReadModelDatabase } from './read-model-database.js';
import { resetReadModel } from './reset-read-model.js';

export type StoreIdentityCheck =
  /** The checkpoints were made against this store. */
  | { outcome: 'same'; storeId: string }
  /** A file from before identities were recorded (or a new one), whose checkpoints this store can have made: now recorded. */
  | { outcome: 'recorded'; storeId: string }
  /** The checkpoints came from another store: every model was emptied, to be built again from this store. */
  | { outcome: 'reset'; storeId: string; previous: string | undefined };

export type StoreIdentityOptions = {
  db: ReadModelDatabase;
  store: EventStore;
  checkpoints: Checkpoints;
  projections: readonly Projection[];
};

/**
 * Compares the store's identity with the one recorded beside the checkpoints and, when they differ,
 * empties every model and clears every checkpoint in one transaction, recording the new identity.
 * A file without a recorded identity keeps its models when every checkpoint is within this store's log.
 */
export async function checkStoreIdentity({ db, store, checkpoints, projections }: StoreIdentityOptions): Promise<StoreIdentityCheck> {
  const storeId = await store.storeId();
  const recorded = checkpoints.storeId();
  if (recorded === storeId) return { outcome: 'same', storeId };
  const positions = projections.flatMap((projection) => checkpoints.find(projection.name)?.position ?? []);
  const head = recorded === undefined && positions.length > 0 ? await store.headPosition() : undefined;
  const plausible = recorded === undefined && positions.every((position) => head !== undefined && position <= head);

  return db
    .transaction((): StoreIdentityCheck => {
      // Another process sharing the file may have settled it meanwhile.
      if (checkpoints.storeId() === storeId) return { outcome: 'same', storeId };
      if (plausible) {
        checkpoints.recordStoreId(storeId);
        return { outcome: 'recorded', storeId };
      }
      for (const projection of projections) resetReadModel(db, projection, checkpoints);
      checkpoints.recordStoreId(storeId);
      return { outcome: 'reset', storeId, previous: recorded };
    })
    .immediate();
}
