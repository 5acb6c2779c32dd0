import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import { chorusDisabled, chorusEnabled, organizationCreated } from '../../testing/organization-events.js';
import type { EnableChorus } from './enable-chorus.js';

describe('EnableChorus', () => {
  it('enables Chorus without a parallel-use setting', () => {
    given([organizationCreated()])
      .when({ type: 'EnableChorus', data: {} })
      .then([{ type: 'ChorusEnabled', data: {} }]);
  });

  it.each([true, false])('enables Chorus with parallelUse %p', (parallelUse) => {
    given([organizationCreated()])
      .when({ type: 'EnableChorus', data: { parallelUse } })
      .then([{ type: 'ChorusEnabled', data: { parallelUse } }]);
  });

  it('decides nothing when Chorus is already enabled with the same setting', () => {
    given([organizationCreated(), chorusEnabled()]).when({ type: 'EnableChorus', data: {} }).then([]);
    given([organizationCreated(), chorusEnabled(true)])
      .when({ type: 'EnableChorus', data: { parallelUse: true } })
      .then([]);
    given([organizationCreated(), chorusEnabled(false)])
      .when({ type: 'EnableChorus', data: { parallelUse: false } })
      .then([]);
  });

  it('records a change of the parallel-use setting, where absent and false are different settings', () => {
    given([organizationCreated(), chorusEnabled()])
      .when({ type: 'EnableChorus', data: { parallelUse: true } })
      .then([{ type: 'ChorusEnabled', data: { parallelUse: true } }]);
    given([organizationCreated(), chorusEnabled(true)])
      .when({ type: 'EnableChorus', data: {} })
      .then([{ type: 'ChorusEnabled', data: {} }]);
    given([organizationCreated(), chorusEnabled()])
      .when({ type: 'EnableChorus', data: { parallelUse: false } })
      .then([{ type: 'ChorusEnabled', data: { parallelUse: false } }]);
  });

  it('enables Chorus again after it was disabled, even with the same setting', () => {
    given([organizationCreated(), chorusEnabled(true), chorusDisabled()])
      .when({ type: 'EnableChorus', data: { parallelUse: true } })
      .then([{ type: 'ChorusEnabled', data: { parallelUse: true } }]);
  });

  it('refuses a parallelUse that is not a boolean', () => {
    given([organizationCreated()])
      .when({ type: 'EnableChorus', data: { parallelUse: 'yes' } } as unknown as EnableChorus)
      .thenThrows('VALIDATION_FAILED', { field: 'parallelUse', reason: 'not_a_boolean' });
  });
});

describe('DisableChorus', () => {
  it('disables an enabled Chorus', () => {
    given([organizationCreated(), chorusEnabled()])
      .when({ type: 'DisableChorus', data: {} })
      .then([{ type: 'ChorusDisabled', data: {} }]);
  });

  it('decides nothing when Chorus is not enabled', () => {
    given([organizationCreated()]).when({ type: 'DisableChorus', data: {} }).then([]);
    given([organizationCreated(), chorusEnabled(), chorusDisabled()])
      .when({ type: 'DisableChorus', data: {} })
      .then([]);
  });
});
