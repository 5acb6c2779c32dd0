import { Injectable } from '@nestjs/common';
import { systemClock, type Clock } from '#identity';

/**
 * The application's clock: what sign-in, invitations, single sign-on and usage decide with (throttle delays,
 * lockouts, expiries, periods). The system clock, unless an e2e test pins one with `app.get(AppClock).pin(clock)`.
 */
@Injectable()
export class AppClock implements Clock {
  private source: Clock = systemClock;

  pin(source: Clock): void {
    this.source = source;
  }

  /** A test's clock, not the system's. */
  get pinned(): boolean {
    return this.source !== systemClock;
  }

  now(): Date {
    return this.source.now();
  }

  sleep(milliseconds: number): Promise<void> {
    return this.source.sleep(milliseconds);
  }
}
