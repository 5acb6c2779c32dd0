// One thread's share of a rebuild split by stream: the projections whose rows follow one stream each,
// folded from the events of the streams of one partition into the aside tables. The thread opens the
// event store and the read-model file itself (a connection belongs to the thread that opened it), reads
// the whole log up to the rebuild's target and applies the events of its streams; the thread that
// started the rebuild does the rest and the swap (rebuild-read-models.ts).
import { openEventStore, type OpenEventStoreOptions } from '#event-store';
import { openReadModelDatabase } from '../read-model-database.js';
import { readModelProjections } from '../read-model-projections.js';
import { asideTableNames } from './aside-tables.js';
import { replay, type ReplayResult } from './replay.js';
import type { StreamPartition } from './stream-partition.js';

/** Where the event store is, for a thread to open its own connection to it. */
export type EventStoreLocation = Pick<OpenEventStoreOptions, 'dataDir' | 'connectionString'>;

/** Everything a partition's thread is given (structured-cloned into it). */
export type PartitionJob = {
  /** DATA_DIR of the read models. */
  dataDir: string;
  store: EventStoreLocation;
  /** The projections of this share, by name (each with rowsFollowOneStream). */
  projections: readonly string[];
  partition: StreamPartition;
  /** Inclusive: the position the whole rebuild stops at. */
  toPosition: bigint | undefined;
  memoryBudget?: number;
};

export async function rebuildPartition(job: PartitionJob): Promise<ReplayResult> {
  const projections = readModelProjections().filter((projection) => job.projections.includes(projection.name));
  const store = await openEventStore(job.store);
  try {
    const db = openReadModelDatabase(job.dataDir);
    try {
      return await replay({
        db,
        store,
        targets: projections.map((projection) => ({ projection, tables: asideTableNames(projection), startsEmpty: true, partition: job.partition })),
        toPosition: job.toPosition,
        ...(job.memoryBudget === undefined ? {} : { memoryBudget: job.memoryBudget }),
      });
    } finally {
      db.close();
    }
  } finally {
    await store.close();
  }
}
