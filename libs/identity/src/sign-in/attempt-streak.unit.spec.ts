import { describe, expect, it } from '@jest/globals';
import {
  accountThrottlePolicy,
  noFailures,
  recordFailure,
  stricter,
  throttleDecision,
  type FailureStreak,
} from './failure-streak.js';

const start = new Date('2030-01-01T09:00:00.000Z');
const after = (milliseconds: number) => new Date(start.getTime() + milliseconds);
const minute = 60_000;

function failures(count: number, everyMs = 1_000, from: FailureStreak = noFailures): FailureStreak {
  let streak = from;
  for (let index = 0; index < count; index += 1) streak = recordFailure(streak, after(index * everyMs), accountThrottlePolicy);
  return streak;
}

describe('the sign-in throttle (per account)', () => {
  it('lets the first three failures through without delay, then slows attempts more and more', () => {
    const delays = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((count) => {
      const decision = throttleDecision(failures(count), after(10 * 1_000), accountThrottlePolicy);
      return decision.kind === 'allow' ? decision.delayMs : -1;
    });
    expect(delays).toEqual([0, 0, 0, 500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it('refuses every attempt for 15 minutes after the tenth failure in a row', () => {
    const locked = failures(10);
    expect(locked.lockedUntil).toBe(after(9_000 + 15 * minute).toISOString());
    expect(throttleDecision(locked, after(10_000), accountThrottlePolicy)).toEqual({ kind: 'refuse', retryAfterMs: 15 * minute - 1_000 });
    expect(throttleDecision(locked, after(9_000 + 15 * minute), accountThrottlePolicy)).toEqual({ kind: 'allow', delayMs: 0 });
  });

  it('doubles the lock for each further lock in a row', () => {
    const twice = failures(10, 1_000, failures(10));
    const lockedFor = new Date(twice.lockedUntil ?? '').getTime() - new Date(twice.lastFailureAt ?? '').getTime();
    expect(twice.locks).toBe(2);
    expect(lockedFor).toBe(30 * minute);
  });

  it('starts a new run after 15 quiet minutes', () => {
    const streak = failures(5);
    expect(throttleDecision(streak, after(4_000 + 15 * minute + 1), accountThrottlePolicy)).toEqual({ kind: 'allow', delayMs: 0 });
    expect(recordFailure(streak, after(4_000 + 15 * minute + 1), accountThrottlePolicy).failures).toBe(1);
  });

  it('combines two decisions by taking the stricter', () => {
    expect(stricter({ kind: 'allow', delayMs: 500 }, { kind: 'allow', delayMs: 2_000 })).toEqual({ kind: 'allow', delayMs: 2_000 });
    expect(stricter({ kind: 'allow', delayMs: 500 }, { kind: 'refuse', retryAfterMs: 9 })).toEqual({ kind: 'refuse', retryAfterMs: 9 });
    expect(stricter({ kind: 'refuse', retryAfterMs: 5 }, { kind: 'refuse', retryAfterMs: 9 })).toEqual({ kind: 'refuse', retryAfterMs: 9 });
  });
});
