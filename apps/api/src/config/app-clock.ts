import { Injectable } from '@nestjs/common';
import { systemClock, type Clock } from '#identity';

/**
 * The clock sign-in decides with (throttle delays, lockouts, session and link expiries): the system
 * clock, unless an e2e test pins a ManualClock with `app.get(IdentityClock).pin(clock)`.
 */
@Injectable()
export class IdentityClock implements Clock {
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
