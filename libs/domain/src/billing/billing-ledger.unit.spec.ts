import { describe, expect, it } from '@jest/globals';
import {
  decideClaim,
  decideOutcome,
  evolveLedger,
  type BillingEventReceived,
  type BillingOutcome,
  type LedgerEntry,
} from './billing-ledger.js';

const received: BillingEventReceived['data'] = {
  id: 'evt_1',
  type: 'plan.purchased',
  organizationId: 'acme',
  productId: 'prod_pro',
  occurredAt: '2026-01-01T00:00:00Z',
  command: { type: 'AssignPlan', data: { line: 'classic', plan: 'professional' } },
};
const applied: BillingOutcome = {
  type: 'BillingEventApplied',
  data: { organizationId: 'acme', organizationEventIds: ['e1'], revision: '1', position: '9' },
};
const fold = (events: ReturnType<typeof decideClaim>) =>
  events.reduce<LedgerEntry | undefined>(evolveLedger, undefined);

describe('the billing ledger', () => {
  it('is claimed by the first delivery only, and finished by one outcome', () => {
    const claimed = fold(decideClaim(undefined, received));
    expect(claimed).toEqual({ received, outcome: undefined });
    expect(decideClaim(claimed, { ...received, productId: 'other' })).toEqual([]);
    const finished = evolveLedger(claimed, applied);
    expect(finished?.outcome).toEqual(applied);
    expect(decideOutcome(finished, { ...applied, data: { ...applied.data, position: '10' } })).toEqual([]);
  });

  it('refuses an outcome before any claim as a broken stream', () => {
    expect(() => evolveLedger(undefined, applied)).toThrow('starts with BillingEventReceived');
  });
});
