import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import { addOnCancelled, addOnPurchased, onChorusPlan, sitesAdded } from '../../testing/organization-events.js';
import type { CancelAddOn } from './cancel-add-on.js';

describe('CancelAddOn', () => {
  it('cancels the quantity asked for', () => {
    given([...onChorusPlan('teams'), addOnPurchased('additionalUser', 3)])
      .when({ type: 'CancelAddOn', data: { addOn: 'additionalUser', quantity: 2 } })
      .then([{ type: 'AddOnCancelled', data: { addOn: 'additionalUser', quantity: 2 } }]);
  });

  it('cancels every active unit when no quantity is given', () => {
    given([
      ...onChorusPlan('teams'),
      addOnPurchased('additionalUser', 3),
      addOnPurchased('additionalUser', 2),
      addOnCancelled('additionalUser', 1),
    ])
      .when({ type: 'CancelAddOn', data: { addOn: 'additionalUser' } })
      .then([{ type: 'AddOnCancelled', data: { addOn: 'additionalUser', quantity: 4 } }]);
  });

  it('cancels exactly the active quantity and refuses one more (INVALID_QUANTITY)', () => {
    const history = [...onChorusPlan('teams'), addOnPurchased('feedback', 2)];
    given(history)
      .when({ type: 'CancelAddOn', data: { addOn: 'feedback', quantity: 2 } })
      .then([{ type: 'AddOnCancelled', data: { addOn: 'feedback', quantity: 2 } }]);
    given(history)
      .when({ type: 'CancelAddOn', data: { addOn: 'feedback', quantity: 3 } })
      .thenThrows('INVALID_QUANTITY', { addOn: 'feedback', quantity: 3, active: 2 });
  });

  it('refuses to cancel an add-on with no active units (NOT_FOUND), including one cancelled already', () => {
    given(onChorusPlan('teams'))
      .when({ type: 'CancelAddOn', data: { addOn: 'webAnalytics' } })
      .thenThrows('NOT_FOUND', { entity: 'addOn', addOn: 'webAnalytics' });
    given([...onChorusPlan('teams'), addOnPurchased('webAnalytics'), addOnCancelled('webAnalytics')])
      .when({ type: 'CancelAddOn', data: { addOn: 'webAnalytics', quantity: 1 } })
      .thenThrows('NOT_FOUND', { entity: 'addOn', addOn: 'webAnalytics' });
  });

  it('cancels even when the content already in use then exceeds the limit', () => {
    given([...onChorusPlan('teams'), addOnPurchased('additionalContentSection'), ...sitesAdded(3)])
      .when({ type: 'CancelAddOn', data: { addOn: 'additionalContentSection' } })
      .then([{ type: 'AddOnCancelled', data: { addOn: 'additionalContentSection', quantity: 1 } }]);
  });

  it('refuses a quantity that is not a whole number from 1, and an unknown add-on', () => {
    const history = [...onChorusPlan('teams'), addOnPurchased('additionalUser', 3)];
    given(history)
      .when({ type: 'CancelAddOn', data: { addOn: 'additionalUser', quantity: 0 } })
      .thenThrows('VALIDATION_FAILED', { field: 'quantity', reason: 'out_of_range' });
    given(history)
      .when({ type: 'CancelAddOn', data: { addOn: 'additionalUser', quantity: 0.5 } })
      .thenThrows('VALIDATION_FAILED', { field: 'quantity', reason: 'not_an_integer' });
    given(history)
      .when({ type: 'CancelAddOn', data: { addOn: 'seats' } } as unknown as CancelAddOn)
      .thenThrows('VALIDATION_FAILED', { field: 'addOn', reason: 'not_allowed' });
  });
});
