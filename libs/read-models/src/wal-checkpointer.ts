// SQLite's inline checkpoint stopped the event loop for hundreds of milliseconds during a catch-up, so a worker
// checkpoints while the projector holds its next commit: with no commit in between, the log starts afresh.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ReadModelDatabase } from './read-model-database.js';
import type { ReadModelsLogger } from './read-models-logger.js';

/** SQLite's own threshold: 1,000 pages of 4 KB. */
const walLimitBytes = 4 * 1024 * 1024;
/**
 * Holding every live commit for the checkpoint's fsyncs put them on the request path: add-member lost two thirds of its
 * rate.
 */
const walLiveHoldBytes = 16 * walLimitBytes;
const sqliteAutoCheckpointPages = 1_000;

export interface CommitPacing {
  beforeCommit(): Promise<void> | undefined;
  beforeLiveCommit(): Promise<void> | undefined;
  afterCommit(): void;
}

// CommonJS, evaluated: it runs the same from the TypeScript sources (tests) and from dist.
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
parentPort.on('message', (message) => {
  if (message === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  let error;
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (failure) {
    error = String((failure && failure.message) || failure);
  }
  parentPort.postMessage({ error });
});
`;

export class WalCheckpointer implements CommitPacing {
  private running: Promise<void> | undefined;
  private finish: (() => void) | undefined;
  private stopped = false;
  private walBytes = 0;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly db: ReadModelDatabase,
    private readonly walFile: string,
    private readonly worker: Worker,
    private readonly logger: ReadModelsLogger,
  ) {
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (message: { error?: string }) => {
      if (message.error !== undefined)
        this.logger.warn({ error: message.error }, 'read-model checkpoint failed; retrying');
      this.checkpointEnded();
    });
    worker.on('error', (error) => {
      this.logger.error({ err: error }, 'read-model checkpoint worker stopped; checkpointing inline again');
      this.inlineAgain();
    });
  }

  static start(db: ReadModelDatabase, file: string, logger: ReadModelsLogger): WalCheckpointer {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(workerSource, { eval: true, workerData: { driver, file } });
    worker.unref();
    db.pragma('wal_autocheckpoint = 0');
    // A log that grew during a long catch-up is cut back to the limit when it starts afresh.
    db.pragma(`journal_size_limit = ${walLimitBytes}`);
    return new WalCheckpointer(db, `${file}-wal`, worker, logger);
  }

  beforeCommit(): Promise<void> | undefined {
    return this.running;
  }

  beforeLiveCommit(): Promise<void> | undefined {
    return this.walBytes > walLiveHoldBytes ? this.running : undefined;
  }

  afterCommit(): void {
    if (this.stopped) return;
    this.walBytes = walSize(this.walFile);
    if (this.running !== undefined || this.walBytes <= walLimitBytes) return;
    this.running = new Promise((resolve) => (this.finish = resolve));
    // Held commits wait for the answer: the process must not end meanwhile (it may have nothing else).
    this.worker.ref();
    this.worker.postMessage('checkpoint');
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.worker.ref();
    this.worker.postMessage('stop');
    this.inlineAgain();
    await this.exited;
  }

  private checkpointEnded(): void {
    if (!this.stopped) this.worker.unref();
    const finish = this.finish;
    this.running = undefined;
    this.finish = undefined;
    finish?.();
  }

  private inlineAgain(): void {
    this.stopped = true;
    this.checkpointEnded();
    if (this.db.open) this.db.pragma(`wal_autocheckpoint = ${sqliteAutoCheckpointPages}`);
  }
}

function walSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
