import { describe, it } from '@jest/globals';
import { ADD_ONS } from '../../plans/plan-lines.js';
import { given } from '../../testing/given-when-then.js';
import { addOnPurchased, onChorusPlan, organizationCreated } from '../../testing/organization-events.js';
import type { PurchaseAddOn } from './purchase-add-on.js';

describe('PurchaseAddOn', () => {
  it.each(ADD_ONS)('buys one unit of %s when no quantity is given', (addOn) => {
    given(onChorusPlan('teams'))
      .when({ type: 'PurchaseAddOn', data: { addOn } })
      .then([{ type: 'AddOnPurchased', data: { addOn, quantity: 1 } }]);
  });

  it('buys the quantity asked for, on top of units already active', () => {
    given([...onChorusPlan('teams'), addOnPurchased('additionalUser', 2)])
      .when({ type: 'PurchaseAddOn', data: { addOn: 'additionalUser', quantity: 3 } })
      .then([{ type: 'AddOnPurchased', data: { addOn: 'additionalUser', quantity: 3 } }]);
  });

  it('accepts a purchase before any plan is chosen, so that a paid purchase is never lost', () => {
    given([organizationCreated()])
      .when({ type: 'PurchaseAddOn', data: { addOn: 'feedback' } })
      .then([{ type: 'AddOnPurchased', data: { addOn: 'feedback', quantity: 1 } }]);
  });

  it.each([
    [0, 'out_of_range'],
    [-1, 'out_of_range'],
    [1.5, 'not_an_integer'],
    [Number.NaN, 'not_an_integer'],
    ['2', 'not_an_integer'],
    [1_000_001, 'out_of_range'],
  ])('refuses the quantity %p (%s)', (quantity, reason) => {
    given(onChorusPlan('teams'))
      .when({ type: 'PurchaseAddOn', data: { addOn: 'additionalUser', quantity } } as PurchaseAddOn)
      .thenThrows('VALIDATION_FAILED', { field: 'quantity', reason });
  });

  it('accepts the largest quantity, 1 000 000', () => {
    given(onChorusPlan('teams'))
      .when({ type: 'PurchaseAddOn', data: { addOn: 'additionalUser', quantity: 1_000_000 } })
      .then([{ type: 'AddOnPurchased', data: { addOn: 'additionalUser', quantity: 1_000_000 } }]);
  });

  it('refuses an unknown add-on', () => {
    given(onChorusPlan('teams'))
      .when({ type: 'PurchaseAddOn', data: { addOn: 'extraStorage' } } as unknown as PurchaseAddOn)
      .thenThrows('VALIDATION_FAILED', { field: 'addOn', reason: 'not_allowed' });
  });
});
