import { describe, expect, it } from '@jest/globals';
import { billingEventSentence } from './billing-event-sentence.js';

describe('billingEventSentence', () => {
  it('the delivery received, applied, superseded', () => {
    expect(billingEventSentence('BillingEventReceived', { id: 'evt_1', type: 'plan.purchased', organizationId: 'acme', productId: 'prod_pro' })).toBe(
      'Billing event received: plan purchased, product prod_pro (evt_1)',
    );
    expect(billingEventSentence('BillingEventReceived', { id: 'evt_2', type: 'addon.purchased', organizationId: 'acme', productId: 'prod_acs', quantity: 2 })).toBe(
      'Billing event received: add-on purchased, product prod_acs × 2 (evt_2)',
    );
    expect(billingEventSentence('BillingEventApplied', { organizationId: 'acme' })).toBe('Billing event applied to the organization');
    expect(billingEventSentence('BillingEventSuperseded', { organizationId: 'acme', supersededBy: 'evt_3' })).toBe('Billing event superseded by evt_3, not applied');
  });

  it('another type, or no data, reads as the type', () => {
    expect(billingEventSentence('BillingEventRefunded', null)).toBe('BillingEventRefunded');
  });
});
