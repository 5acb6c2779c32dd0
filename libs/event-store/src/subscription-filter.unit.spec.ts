import { describe, expect, it } from '@jest/globals';
import { matchesSubscriptionFilter } from './subscription-filter.js';

describe('Subscription filters', () => {
  it('let everything through without conditions', () => {
    expect(matchesSubscriptionFilter(undefined, 'org-1', 'SiteAdded')).toBe(true);
    expect(matchesSubscriptionFilter({ streamPrefixes: [], eventTypes: [] }, 'org-1', 'SiteAdded')).toBe(true);
  });

  it('match any of the stream prefixes and exactly one of the event types, both when both are given', () => {
    const filter = { streamPrefixes: ['org-', 'user-'], eventTypes: ['SiteAdded'] };

    expect(matchesSubscriptionFilter(filter, 'user-7', 'SiteAdded')).toBe(true);
    expect(matchesSubscriptionFilter(filter, 'billing-7', 'SiteAdded')).toBe(false);
    expect(matchesSubscriptionFilter(filter, 'org-7', 'SiteAddedTwice')).toBe(false);
    expect(matchesSubscriptionFilter({ eventTypes: ['SiteAdded'] }, 'anything', 'SiteAdded')).toBe(true);
  });
});
