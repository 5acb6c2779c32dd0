// Callers' addresses and user agents are kept for a while to find abuse, then forgotten: each month's key is
// deleted PERSONAL_DATA_RETENTION_DAYS after the month ends, on whichever node looks first (docs/privacy.md).
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Logger } from 'pino';
import type { PersonalKeys } from '#application';
import { CONFIG, type Config } from '#config';
import { PERIOD_SUBJECT_PREFIX } from '#domain';
import { PERSONAL_KEYS } from '#event-store';
import { AppClock } from '../config/app-clock.js';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';
import { PINO } from '../logging/pino.js';

const DAY_MS = 86_400_000;
const LOOK_EVERY_MS = 3_600_000;

/** When a month's key may go: `period:2030-01` ends on 2030-02-01, plus the retention days. */
export function expiresAt(subject: string, retentionDays: number): number | undefined {
  const match = /^(\d{4})-(\d{2})$/.exec(subject.slice(PERIOD_SUBJECT_PREFIX.length));
  if (match === null) return undefined;
  return Date.UTC(Number(match[1]), Number(match[2]), 1) + retentionDays * DAY_MS;
}

@Injectable()
export class PersonalDataRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(PERSONAL_KEYS) private readonly keys: PersonalKeys,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    @Inject(PINO) private readonly logger: Logger,
    private readonly clock: AppClock,
  ) {}

  onApplicationBootstrap(): void {
    if (this.runMode !== 'server') return;
    const look = () =>
      void this.expire().catch((error: unknown) =>
        this.logger.error(
          { err: error },
          'Expired personal data keys could not be deleted: trying again within the hour',
        ),
      );
    look();
    this.timer = setInterval(look, LOOK_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Deletes every month key past its retention; answers the months it deleted. */
  async expire(): Promise<string[]> {
    const now = this.clock.now().getTime();
    const retentionDays = this.config.personalDataRetentionDays;
    const expired = (await this.keys.subjects(PERIOD_SUBJECT_PREFIX)).filter(
      (subject) => (expiresAt(subject, retentionDays) ?? Infinity) <= now,
    );
    for (const subject of expired) await this.keys.erase(subject);
    if (expired.length > 0)
      this.logger.info({ months: expired }, 'Personal data of past months removed: their keys are deleted');
    return expired;
  }
}
