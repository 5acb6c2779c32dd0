// Time comes in through a port so that expiry and throttling are testable without sleeping.
export interface Clock {
  now(): Date;
  /** Waits (the throttle's growing delays); a manual clock moves its time forward instead. */
  sleep(milliseconds: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
};

/** A clock that only moves when told to; `sleep` advances it and records the delay. */
export class ManualClock implements Clock {
  private current: number;
  readonly sleeps: number[] = [];

  constructor(start: Date | string = '2030-01-01T09:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }

  async sleep(milliseconds: number): Promise<void> {
    this.sleeps.push(milliseconds);
    this.current += milliseconds;
  }
}
