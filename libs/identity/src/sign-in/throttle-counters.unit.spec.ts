import { describe, expect, it } from '@jest/globals';
import { addressThrottlePolicy } from './failure-streak.js';
import { ThrottleCounters } from './throttle-counters.js';

const at = (second: number) => new Date(Date.UTC(2030, 0, 1, 9, 0, second));

describe('throttle counters per client address', () => {
  it('slow an address after 20 failures and refuse it after 100, whatever names it tries', () => {
    const counters = new ThrottleCounters(addressThrottlePolicy);
    for (let failure = 0; failure < 20; failure += 1) counters.record('203.0.113.7', at(failure % 60));
    expect(counters.decision('203.0.113.7', at(59))).toEqual({ kind: 'allow', delayMs: 250 });
    for (let failure = 20; failure < 100; failure += 1) counters.record('203.0.113.7', at(59));
    expect(counters.decision('203.0.113.7', at(59))).toMatchObject({ kind: 'refuse' });
    expect(counters.decision('198.51.100.1', at(59))).toEqual({ kind: 'allow', delayMs: 0 });
  });

  it('forget the least recently counted key beyond their bound', () => {
    const counters = new ThrottleCounters({ ...addressThrottlePolicy, lockAfter: 1 }, 2);
    counters.record('a', at(0));
    counters.record('b', at(1));
    counters.record('c', at(2));
    expect(counters.decision('a', at(3))).toEqual({ kind: 'allow', delayMs: 0 });
    expect(counters.decision('c', at(3))).toMatchObject({ kind: 'refuse' });
  });
});
