// Anyone can make an SSO sign-on fail, so each organization keeps a bounded sample per hour in full and counts the rest
// (the counts stay exact while the stored events stay bounded).
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import { FoldedStateCache, handleCommand, newCommandContext, type CommandContext } from '#application';
import {
  failureWindowOf,
  FAILURE_WINDOW_MS,
  ssoSignOnFailuresDecider,
  type FailuresInFull,
  type SsoFailureReason,
} from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { AppClock } from '../config/app-clock.js';
import { PINO } from '../logging/pino.js';
import type { SsoSignOnFailure } from './sso-sign-on-failure.error.js';

const SWEEP_MS = 60_000;

type Counted = { window: string; byReason: Partial<Record<SsoFailureReason, number>>; total: number };

@Injectable()
export class SsoSignOnFailureLog implements OnModuleDestroy {
  /** Recording one reads only the events after it. */
  private readonly heads = new FoldedStateCache<FailuresInFull>(10_000);
  /** Their failures are counted without a read. */
  private readonly full = new Map<string, string>();
  private readonly counted = new Map<string, Counted>();
  private readonly sweeper: NodeJS.Timeout;
  /** One at a time, awaited on shutdown. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly clock: AppClock,
    @Inject(PINO) private readonly logger: Logger,
  ) {
    this.sweeper = setInterval(() => void this.writeCounts(false), SWEEP_MS).unref();
  }

  async record(organizationId: string, failure: SsoSignOnFailure, context: CommandContext): Promise<boolean> {
    const at = this.clock.now();
    const window = failureWindowOf(at);
    const earlier = this.counted.get(organizationId);
    if (earlier !== undefined && earlier.window !== window) await this.writeCounts(false);
    if (this.full.get(organizationId) === window) {
      this.count(organizationId, window, failure.reason);
      return false;
    }
    const command = {
      type: 'RecordSsoSignOnFailure',
      data: { reason: failure.reason, detail: failure.detail.slice(0, 500), ...failure.who, at: at.toISOString() },
    } as const;
    let stored = false;
    let roomLeft = true;
    try {
      const handled = await handleCommand(this.store, ssoSignOnFailuresDecider, organizationId, command, context, {
        cache: this.heads,
      });
      stored = handled.appended.length > 0;
      roomLeft = stored;
    } catch (error) {
      // Counted rather than lost: the count stays exact whatever the store answered.
      this.logger.warn({ err: error, organizationId }, 'SSO sign-on failure counted, not stored in full');
    }
    if (!roomLeft) {
      if (this.full.size >= 10_000) this.full.clear();
      this.full.set(organizationId, window);
    }
    if (!stored) this.count(organizationId, window, failure.reason);
    return stored;
  }

  writeCounts(all: boolean): Promise<void> {
    const run = this.writing.then(() => this.writeNow(all));
    this.writing = run;
    return run;
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    await this.writeCounts(true);
  }

  private count(organizationId: string, window: string, reason: SsoFailureReason): void {
    const counted = this.counted.get(organizationId) ?? { window, byReason: {}, total: 0 };
    counted.byReason[reason] = (counted.byReason[reason] ?? 0) + 1;
    counted.total += 1;
    this.counted.set(organizationId, counted);
  }

  private async writeNow(all: boolean): Promise<void> {
    const current = failureWindowOf(this.clock.now());
    for (const [organizationId, counted] of [...this.counted]) {
      if (!all && counted.window === current) continue;
      this.counted.delete(organizationId);
      const from = counted.window;
      const to = new Date(Date.parse(from) + FAILURE_WINDOW_MS).toISOString();
      const command = {
        type: 'CountSsoSignOnFailures',
        data: { from, to, total: counted.total, byReason: counted.byReason },
      } as const;
      try {
        // No one request's origin: the counts are of many callers, as this node saw them.
        await handleCommand(
          this.store,
          ssoSignOnFailuresDecider,
          organizationId,
          command,
          newCommandContext('anonymous'),
          { cache: this.heads },
        );
      } catch (error) {
        this.logger.error(
          { err: error, organizationId, ...command.data },
          'SSO sign-on failure counts could not be recorded',
        );
      }
    }
  }
}
