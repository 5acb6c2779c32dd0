import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import { organizationCreated } from '../../testing/organization-events.js';

const created = organizationCreated();

describe('SetTwoStepSignInPolicy', () => {
  it('records a change of the requirement, and nothing for the same setting again', () => {
    given([created])
      .when({ type: 'SetTwoStepSignInPolicy', data: { required: true } })
      .then([{ type: 'TwoStepSignInPolicySet', data: { required: true } }]);
    given([created])
      .when({ type: 'SetTwoStepSignInPolicy', data: { required: false } })
      .then([]);
    given([created, { type: 'TwoStepSignInPolicySet', data: { required: true } }])
      .when({ type: 'SetTwoStepSignInPolicy', data: { required: true } })
      .then([]);
  });

  it('refuses what is not a boolean', () => {
    given([created])
      .when({ type: 'SetTwoStepSignInPolicy', data: { required: 'yes' as unknown as boolean } })
      .thenThrows('VALIDATION_FAILED');
  });
});
