import { describe, expect, it } from '@jest/globals';
import { billingEventSentence } from './billing-event-sentence.js';

describe('billingEventSentence', () => {
  it('the delivery received, applied, superseded', () => {
    expect(
      billingEventSentence('BillingEventReceived', {
        id: 'evt_1',
        type: 'plan.purchased',
        organizationId: 'acme',
        productId: 'prod_pro',
      }),
    ).toBe('Billing event received: plan purchased, product prod_pro (evt_1)');
    expect(
      billingEventSentence('BillingEventReceived', {
        id: 'evt_2',
        type: 'addon.purchased',
        organizationId: 'acme',
        productId: 'prod_acs',
        quantity: 2,
      }),
    ).toBe('Billing event received: add-on purchased, product prod_acs × 2 (evt_2)');
    expect(billingEventSentence('BillingEventApplied', { organizationId: 'acme' })).toBe(
      'Billing event applied to the organization',
    );
    expect(billingEventSentence('BillingEventSuperseded', { organizationId: 'acme', supersededBy: 'evt_3' })).toBe(
      'Billing event superseded by evt_3, not applied',
    );
  });

  it('what Stripe sent, as recorded on the subscription’s stream', () => {
    const subscription = { eventId: 'evt_s', subscriptionId: 'sub_1' };
    expect(
      billingEventSentence('StripeSubscriptionObserved', {
        ...subscription,
        eventType: 'customer.subscription.updated',
        status: 'past_due',
      }),
    ).toBe('Stripe event received: customer.subscription.updated, subscription sub_1 past_due (evt_s)');
    expect(billingEventSentence('StripeSubscriptionLinked', { ...subscription, organizationId: 'acme' })).toBe(
      'Stripe checkout completed: subscription sub_1 belongs to this organization (evt_s)',
    );
    expect(billingEventSentence('StripePaymentObserved', { ...subscription, paid: false })).toBe(
      'Stripe invoice payment failed: subscription sub_1 (evt_s)',
    );
    expect(
      billingEventSentence('StripeEventUnmatched', {
        eventId: 'evt_u',
        reason: 'UNKNOWN_PRICE',
        detail: 'Price p is sold by nothing.',
      }),
    ).toBe('Stripe event not placed (UNKNOWN_PRICE): Price p is sold by nothing. (evt_u)');
  });

  it('another type, or no data, reads as the type', () => {
    expect(billingEventSentence('BillingEventRefunded', null)).toBe('BillingEventRefunded');
  });
});
