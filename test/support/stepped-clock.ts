// A clock for e2e tests of timers: unlike ManualClock, whose sleep moves time forward at once, a sleep here
// resolves only when the test advances the clock past its end. Pin it with `app.get(AppClock).pin(clock)`.
import type { Clock } from '#identity';

export class SteppedClock implements Clock {
  private current: number;
  private sleepers: { until: number; wake: () => void }[] = [];

  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  /** How many sleeps are waiting for the clock to move. */
  get sleeping(): number {
    return this.sleepers.length;
  }

  sleep(milliseconds: number): Promise<void> {
    return new Promise((wake) => {
      if (milliseconds <= 0) wake();
      else this.sleepers.push({ until: this.current + milliseconds, wake });
    });
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
    const due = this.sleepers.filter((sleeper) => sleeper.until <= this.current);
    this.sleepers = this.sleepers.filter((sleeper) => sleeper.until > this.current);
    for (const sleeper of due) sleeper.wake();
  }
}
