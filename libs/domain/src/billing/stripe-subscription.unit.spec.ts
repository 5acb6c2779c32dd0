import { describe, expect, it } from '@jest/globals';
import { createPlanCatalogue } from '../plans/plan-catalogue.js';
import {
  decideStripeObservation,
  decideUnmatched,
  evolveStripeSubscription,
  evolveStripeUnmatched,
  initialStripeSubscriptionState,
  initialStripeUnmatchedState,
  stripePlacement,
  type StripeEventUnmatched,
  type StripeSubscriptionEvent,
  type StripeSubscriptionSeen,
} from './stripe-subscription.js';

const catalogue = createPlanCatalogue({
  paymentProviderIds: ['prod_ess', 'prod_pro', '', 'prod_acs'],
  linkedProductIds: { 'chorus:teams': ['price_teams'] },
});
const seen = (created: number, fields: Partial<StripeSubscriptionSeen> = {}): StripeSubscriptionEvent => ({
  type: 'StripeSubscriptionObserved',
  data: {
    eventId: `evt_${created}_${fields.status ?? 'active'}`,
    eventType: 'customer.subscription.updated',
    created,
    subscriptionId: 'sub_1',
    organizationId: 'acme',
    status: 'active',
    items: [{ priceId: 'price_ess', productId: 'prod_ess', quantity: 1 }],
    trialEnd: null,
    cancelAtPeriodEnd: false,
    cancelAt: null,
    periodStart: 1_800_000_000,
    periodEnd: 1_802_592_000,
    endedAt: null,
    ...fields,
  },
});
const payment = (created: number, paid: boolean, customer: { customerId?: string } = {}): StripeSubscriptionEvent => ({
  type: 'StripePaymentObserved',
  data: {
    eventId: `evt_pay_${created}`,
    eventType: paid ? 'invoice.paid' : 'invoice.payment_failed',
    created,
    subscriptionId: 'sub_1',
    paid,
    ...customer,
  },
});
const fold = (events: StripeSubscriptionEvent[]) =>
  events.reduce(evolveStripeSubscription, initialStripeSubscriptionState());
const placed = (events: StripeSubscriptionEvent[]) => stripePlacement(fold(events), catalogue);

describe('a Stripe subscription’s events', () => {
  it('records each event once, whatever its age', () => {
    const state = fold([seen(10)]);
    expect(decideStripeObservation(state, seen(10))).toEqual([]);
    expect(decideStripeObservation(state, seen(5))).toHaveLength(1);
  });

  it('takes the newest by Stripe’s created, not by arrival; an ended one wins a tie', () => {
    expect(
      placed([seen(20, { items: [{ priceId: 'p', productId: 'prod_pro', quantity: 1 }] }), seen(10)]),
    ).toMatchObject({ data: { plans: { classic: 'professional' } } });
    expect(placed([seen(10, { status: 'canceled' }), seen(10)])).toMatchObject({ data: { status: 'ended' } });
    expect(placed([seen(10), seen(10, { eventType: 'customer.subscription.deleted' })])).toMatchObject({
      data: { status: 'ended', plans: {} },
    });
  });

  it('matches items by product, then by price; quantities are add-on units', () => {
    const items = [
      { priceId: 'price_teams', productId: 'prod_not_listed', quantity: 1 },
      { priceId: 'price_acs', productId: 'prod_acs', quantity: 3 },
    ];
    expect(placed([seen(1, { items })])).toMatchObject({
      kind: 'sync',
      data: { plans: { chorus: 'teams' }, addOns: { additionalContentSection: 3 } },
    });
    expect(placed([seen(1, { items: [{ priceId: 'price_x', productId: 'prod_x', quantity: 1 }] })])).toMatchObject({
      kind: 'unmatched',
      reason: 'UNKNOWN_PRICE',
    });
  });

  it('a newer failed invoice makes an active subscription past due, a newer paid one active again', () => {
    expect(placed([seen(10), payment(11, false)])).toMatchObject({ data: { status: 'past_due' } });
    expect(placed([seen(10), payment(11, false), payment(12, true)])).toMatchObject({ data: { status: 'active' } });
    expect(placed([payment(9, false), seen(10)])).toMatchObject({ data: { status: 'active' } });
    expect(placed([seen(10, { status: 'past_due' }), payment(11, true)])).toMatchObject({ data: { status: 'active' } });
  });

  it('reads trials, a scheduled end and the period as dates', () => {
    const trialing = placed([seen(1, { status: 'trialing', trialEnd: 1_801_000_000 })]);
    expect(trialing).toMatchObject({
      data: {
        status: 'trialing',
        trialEndsAt: '2027-01-26T21:46:40.000Z',
        currentPeriod: { start: '2027-01-15T08:00:00.000Z' },
      },
    });
    expect(placed([seen(1, { cancelAtPeriodEnd: true })])).toMatchObject({
      data: { endsOn: '2027-02-14T08:00:00.000Z' },
    });
  });

  it('waits for an organization, or for a first payment', () => {
    expect(placed([seen(1, { organizationId: null })])).toMatchObject({ kind: 'unmatched', reason: 'NO_ORGANIZATION' });
    const linked: StripeSubscriptionEvent = {
      type: 'StripeSubscriptionLinked',
      data: { eventId: 'evt_cs', created: 2, subscriptionId: 'sub_1', organizationId: 'globex' },
    };
    expect(placed([seen(1, { organizationId: null }), linked])).toMatchObject({
      kind: 'sync',
      organizationId: 'globex',
    });
    expect(placed([seen(1, { status: 'incomplete' })])).toEqual({ kind: 'wait' });
    expect(placed([linked])).toEqual({ kind: 'wait' });
  });

  it('carries the subscription’s customer, as any of its events named it, and when Stripe created it', () => {
    const linked: StripeSubscriptionEvent = {
      type: 'StripeSubscriptionLinked',
      data: { eventId: 'evt_cs', created: 2, subscriptionId: 'sub_1', organizationId: 'globex', customerId: 'cus_1' },
    };
    expect(placed([seen(1, { organizationId: null, subscriptionCreated: 1_799_000_000 }), linked])).toMatchObject({
      kind: 'sync',
      data: { customerId: 'cus_1', createdAt: '2027-01-03T18:13:20.000Z' },
    });
    expect(placed([seen(1), payment(2, true, { customerId: 'cus_2' })])).toMatchObject({
      data: { customerId: 'cus_2' },
    });
    // Recorded before the customer and the creation were read.
    expect(placed([seen(1)])).toMatchObject({ data: { customerId: null, createdAt: null } });
  });
});

describe('an unmatched Stripe event', () => {
  const unmatched: StripeEventUnmatched = {
    type: 'StripeEventUnmatched',
    data: {
      eventId: 'evt_1',
      eventType: 'invoice.paid',
      created: 1,
      subscriptionId: null,
      organizationId: null,
      reason: 'NO_SUBSCRIPTION',
      detail: 'none',
    },
  };

  it('is kept once on its own stream, however often Stripe delivers it', () => {
    expect(decideUnmatched(initialStripeUnmatchedState(), unmatched)).toEqual([unmatched]);
    expect(decideUnmatched(evolveStripeUnmatched(initialStripeUnmatchedState(), unmatched), unmatched)).toEqual([]);
  });
});
