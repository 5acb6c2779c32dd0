// Runs a partition of a rebuild (rebuild-partition.ts) in a worker thread of this process: it ends with
// the process (SIGKILL included), and the rebuild's swap stays the one transaction of the thread that
// started it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { PartitionJob } from './rebuild-partition.js';
import type { PartitionReply } from './rebuild-partition.worker.js';
import type { ReplayResult } from './replay.js';

/** A partition being rebuilt elsewhere: its outcome, and how to stop it (the rebuild failed meanwhile). */
export type PartitionRun = { result: Promise<ReplayResult>; stop: () => Promise<void> };

export type RunPartition = (job: PartitionJob) => PartitionRun;

const workerFile = fileURLToPath(new URL('./rebuild-partition.worker.js', import.meta.url));

/** Whether this build has the worker's entry (compiled); run from the TypeScript sources, a rebuild keeps to one thread. */
export function partitionThreadsAvailable(): boolean {
  return existsSync(workerFile);
}

export const runPartitionInThread: RunPartition = (job) => {
  const worker = new Worker(workerFile, { workerData: job });
  const result = new Promise<ReplayResult>((resolve, reject) => {
    worker.once('message', (reply: PartitionReply) => {
      if ('error' in reply) reject(Object.assign(new Error(reply.error), { name: reply.name }));
      else resolve(reply);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`A rebuild's worker thread stopped (exit code ${code}) before it finished`)));
  });
  // Awaited once this thread's share is done; a failure before then must not count as unhandled.
  result.catch(() => undefined);
  return { result, stop: async () => void (await worker.terminate()) };
};
