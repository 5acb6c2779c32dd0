// The server's side of the checkpoints: at start-up the signing key is loaded (generated into DATA_DIR when unset)
// and checked against the log's latest checkpoint (a missing or changed key stops the server, naming
// HISTORY_SIGNING_KEY); then, every minute, a checkpoint if one is due.
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { HistoryKeyError, keyFingerprint } from '#event-store';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';
import { PINO } from '../logging/pino.js';
import { HistoryCheckpoints } from './history-checkpoints.js';

const LOOK_EVERY_MS = 60_000;

@Injectable()
export class CheckpointSchedule implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly checkpoints: HistoryCheckpoints,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    @Inject(PINO) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.runMode !== 'server') return;
    await this.checkKey();
    if (!this.checkpoints.chained) {
      this.logger.warn(
        'EventStoreDB keeps no chain of its log, only of each stream: no history checkpoint is signed (docs/history.md)',
      );
      return;
    }
    // The first look a minute after start: a server that starts and stops at once signs nothing.
    const look = () => void this.checkpoints.signIfDue();
    this.timer = setInterval(look, LOOK_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** The key loads, and is the one that signed the latest checkpoint. */
  async checkKey(): Promise<void> {
    const key = this.checkpoints.key();
    // A key in DATA_DIR is said in the start-up banner (start-up-banner.ts).
    const latest = await this.checkpoints.latest();
    if (latest === undefined) return;
    const signer = keyFingerprint(latest.checkpoint.publicKey);
    if (signer !== key.fingerprint)
      throw new HistoryKeyError(
        `HISTORY_SIGNING_KEY: the history's latest checkpoint (position ${latest.position}) was signed by the key ${signer}, and this node's key is ${key.fingerprint} (${key.source}). Nodes sharing a store share one key: set HISTORY_SIGNING_KEY to the key that signed it. If that key is lost, chorus history:checkpoint --new-key records the change in the log (docs/history.md).`,
      );
  }
}
