// Throttle streaks kept in this process's memory, by key: client addresses, login names that
// match no account (so unknown names are throttled exactly like real ones), reset requests.
import {
  noFailures,
  recordFailure,
  throttleDecision,
  type FailureStreak,
  type ThrottleDecision,
  type ThrottlePolicy,
} from './failure-streak.js';

export class ThrottleCounters {
  private readonly streaks = new Map<string, FailureStreak>();

  constructor(
    private readonly policy: ThrottlePolicy,
    /** Bounded so a flood of distinct keys cannot exhaust memory; the least recently counted go first. */
    private readonly maxKeys = 100_000,
  ) {}

  decision(key: string, now: Date): ThrottleDecision {
    return throttleDecision(this.streaks.get(key) ?? noFailures, now, this.policy);
  }

  record(key: string, at: Date): void {
    const next = recordFailure(this.streaks.get(key) ?? noFailures, at, this.policy);
    this.streaks.delete(key);
    this.streaks.set(key, next);
    if (this.streaks.size > this.maxKeys) {
      const oldest = this.streaks.keys().next();
      if (!oldest.done) this.streaks.delete(oldest.value);
    }
  }
}
