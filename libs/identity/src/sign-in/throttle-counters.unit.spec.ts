import { describe, expect, it } from '@jest/globals';
import { resetRequestThrottlePolicy } from '#domain';
import { ThrottleCounters } from './throttle-counters.js';

const at = (second: number) => new Date(Date.UTC(2030, 0, 1, 9, 0, second));

describe('throttle counters per client address (reset requests)', () => {
  it('take 10 requests from an address, then refuse it, whatever the other addresses do', () => {
    const counters = new ThrottleCounters(resetRequestThrottlePolicy);
    for (let request = 0; request < 10; request += 1)
      expect(counters.reserve('203.0.113.7', at(request))).toMatchObject({ kind: 'reserve', delayMs: 0 });
    expect(counters.reserve('203.0.113.7', at(11))).toEqual({ kind: 'refuse', retryAfterMs: 15 * 60_000 - 2_000 });
    expect(counters.reserve('198.51.100.1', at(11))).toMatchObject({ kind: 'reserve' });
  });

  it('forget the least recently counted key beyond their bound', () => {
    const counters = new ThrottleCounters({ ...resetRequestThrottlePolicy, lockAfter: 1 }, 2);
    counters.reserve('a', at(0));
    counters.reserve('b', at(1));
    counters.reserve('c', at(2));
    expect(counters.reserve('a', at(3))).toMatchObject({ kind: 'reserve' });
    expect(counters.reserve('c', at(3))).toMatchObject({ kind: 'refuse' });
  });
});
