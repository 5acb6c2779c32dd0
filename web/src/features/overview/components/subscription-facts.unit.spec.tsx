import { describe, expect, it } from '@jest/globals';
import type { Subscription } from '../../../api/contract';
import { subscriptionNext, subscriptionStatusText } from './subscription-facts';

const active: Subscription = {
  provider: 'stripe',
  status: 'active',
  trialEndsAt: null,
  endsOn: null,
  currentPeriod: { start: '2026-12-01T00:00:00.000Z', end: '2026-12-31T00:00:00.000Z' },
  endedAt: null,
};

describe('the subscription in words', () => {
  it.each<[Partial<Subscription>, string, [string, string] | null]>([
    [{}, 'Active', ['Renews on', '31 December 2026']],
    [{ endsOn: '2026-12-31T00:00:00.000Z' }, 'Active', ['Ends on', '31 December 2026']],
    [
      { status: 'trialing', trialEndsAt: '2026-12-04T12:00:00.000Z' },
      'Trial until 4 December 2026',
      ['First charge on', '31 December 2026'],
    ],
    [{ status: 'past_due' }, 'Payment overdue', ['Renews on', '31 December 2026']],
    [{ status: 'ended', endedAt: '2026-11-20T08:00:00.000Z' }, 'Ended on 20 November 2026', null],
    [{ currentPeriod: null }, 'Active', null],
  ])('%p reads "%s", then "%s"', (fields, status, next) => {
    const subscription = { ...active, ...fields };
    expect(subscriptionStatusText(subscription)).toBe(status);
    expect(subscriptionNext(subscription)).toEqual(next);
  });
});
