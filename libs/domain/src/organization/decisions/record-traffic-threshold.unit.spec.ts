import { describe, expect, it } from '@jest/globals';
import { createPlanCatalogue } from '../../plans/plan-catalogue.js';
import { decide } from '../decisions.js';
import { evolve } from '../evolve.js';
import { operator } from '../requester.js';
import { initialOrganizationState } from '../state.js';
import type { OrganizationEvent } from '../events.js';

const context = { catalogue: createPlanCatalogue({ paymentProviderIds: [] }), requester: operator };
const created = evolve(initialOrganizationState, {
  type: 'OrganizationCreated',
  data: { id: 'acme', name: 'Acme' },
} as OrganizationEvent);
const reach = (threshold: 80 | 100, period = '2026-11') => ({
  type: 'RecordTrafficThreshold' as const,
  data: { period, threshold, used: 8_000, allowance: 10_000 },
});

describe('RecordTrafficThreshold', () => {
  it('records a threshold once per month, however often it is told', () => {
    const events = decide(reach(80), created, context);
    expect(events).toEqual([
      { type: 'TrafficThresholdReached', data: { period: '2026-11', threshold: 80, used: 8_000, allowance: 10_000 } },
    ]);
    const after = events.reduce(evolve, created);
    expect(decide(reach(80), after, context)).toEqual([]);
    expect(decide(reach(100), after, context)).toHaveLength(1);
    expect(decide(reach(80, '2026-12'), after, context)).toHaveLength(1);
  });

  it('refuses what is not a month, a threshold or a count', () => {
    expect(() => decide({ ...reach(80), data: { ...reach(80).data, period: '2026-13' } }, created, context)).toThrow(
      /period/,
    );
    expect(() => decide({ ...reach(80), data: { ...reach(80).data, threshold: 50 as 80 } }, created, context)).toThrow(
      /threshold/,
    );
    expect(() => decide({ ...reach(80), data: { ...reach(80).data, used: -1 } }, created, context)).toThrow(/count/);
  });
});
