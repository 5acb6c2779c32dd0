// The restore's verification in a thread of its own (verification.worker.ts): its replay of the restored log into
// memory, which alone takes as long as the rebuild, runs on another core while the main thread rebuilds the stored
// models. It compares once told that the rebuild and the erasures done again are over.
import { Worker } from 'node:worker_threads';
import { storeLocationOf, type Config } from '#config';
import type { Verification } from '#read-models';
import type { StoreLocation } from './stores.js';

export type VerificationData = { location: StoreLocation; upTo: bigint | undefined };

/** Whether an event up to `upTo` may read otherwise than it did (someone erased since): then all is replayed again. */
export type VerificationRequest = { readsChanged: boolean };

export type VerificationAnswer = { verifications: Verification[] } | { error: string };

export class VerificationThread {
  private readonly answer: Promise<VerificationAnswer>;

  private constructor(private readonly worker: Worker) {
    this.answer = new Promise<VerificationAnswer>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`The verification's thread stopped (exit code ${code}) before it answered`)),
      );
    });
    // Asked for only once the rebuild is done; a restore failing before then stops the thread instead.
    this.answer.catch(() => undefined);
  }

  /** Starts replaying the configured store's log into memory up to `upTo` (inclusive). */
  static start(config: Config, upTo: bigint | undefined): VerificationThread {
    const workerData: VerificationData = { location: storeLocationOf(config), upTo };
    return new VerificationThread(new Worker(new URL('./verification.worker.js', import.meta.url), { workerData }));
  }

  async verify(request: VerificationRequest): Promise<Verification[]> {
    this.worker.postMessage(request);
    const answer = await this.answer;
    if ('error' in answer) throw new Error(answer.error);
    return answer.verifications;
  }

  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}
