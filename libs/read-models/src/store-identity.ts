// Against another store, checkpoints name other events, or none.
import type { EventStore } from '#event-store';
import type { Checkpoints } from './checkpoints.js';
import type { Projection } from './projection.js';
import type { ReadModelDatabase } from './read-model-database.js';
import { resetReadModel } from './reset-read-model.js';

export type StoreIdentityCheck =
  | { outcome: 'same'; storeId: string }
  /** A file from before identities were recorded, whose checkpoints this store can have made. */
  | { outcome: 'recorded'; storeId: string }
  | { outcome: 'reset'; storeId: string; previous: string | undefined };

export type StoreIdentityOptions = {
  db: ReadModelDatabase;
  store: EventStore;
  checkpoints: Checkpoints;
  projections: readonly Projection[];
};

/** A file without a recorded identity keeps its models when every checkpoint is within this store's log. */
export async function checkStoreIdentity({
  db,
  store,
  checkpoints,
  projections,
}: StoreIdentityOptions): Promise<StoreIdentityCheck> {
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
