// The entry of a rebuild's worker thread (compiled: from the TypeScript sources a rebuild runs in one thread).
import { parentPort, workerData } from 'node:worker_threads';
import { rebuildPartition, type PartitionJob } from './rebuild-partition.js';

/** What the thread answers: the events it read and where it stopped, or why it failed. */
export type PartitionReply = { position: bigint | undefined; events: number } | { error: string; name: string };

rebuildPartition(workerData as PartitionJob).then(
  (result) => parentPort?.postMessage(result satisfies PartitionReply),
  (error: unknown) =>
    parentPort?.postMessage({
      error: error instanceof Error ? error.message : String(error),
      name: error instanceof Error ? error.name : 'Error',
    } satisfies PartitionReply),
);
