import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import { limitsConfigured, membersAdded, onChorusPlan } from '../../testing/organization-events.js';
import type { ConfigureLimits } from './configure-limits.js';

describe('ConfigureLimits', () => {
  it('sets any of the four limits and the override flag', () => {
    given(onChorusPlan('teams'))
      .when({
        type: 'ConfigureLimits',
        data: { users: 7, contentSections: 0, qualityAssuranceDomains: 3, webAnalyticsDomains: 20, override: true },
      })
      .then([
        {
          type: 'LimitsConfigured',
          data: { users: 7, contentSections: 0, qualityAssuranceDomains: 3, webAnalyticsDomains: 20, override: true },
        },
      ]);
  });

  it('clears a limit back to the plan-derived value with null', () => {
    given([...onChorusPlan('teams'), limitsConfigured({ users: 7 })])
      .when({ type: 'ConfigureLimits', data: { users: null } })
      .then([{ type: 'LimitsConfigured', data: { users: null } }]);
  });

  it('records only what changes', () => {
    given([...onChorusPlan('teams'), limitsConfigured({ users: 7, override: true })])
      .when({ type: 'ConfigureLimits', data: { users: 7, contentSections: 4, override: true } })
      .then([{ type: 'LimitsConfigured', data: { contentSections: 4 } }]);
  });

  it('decides nothing when nothing changes, or nothing is asked', () => {
    given([...onChorusPlan('teams'), limitsConfigured({ users: 7, override: true })])
      .when({ type: 'ConfigureLimits', data: { users: 7, override: true } })
      .then([]);
    given(onChorusPlan('teams'))
      .when({ type: 'ConfigureLimits', data: { users: null, override: false } })
      .then([]);
    given(onChorusPlan('teams')).when({ type: 'ConfigureLimits', data: {} }).then([]);
  });

  it('accepts a limit below what is already in use (only further adds are refused)', () => {
    given([...onChorusPlan('teams'), ...membersAdded(4)])
      .when({ type: 'ConfigureLimits', data: { users: 2 } })
      .then([{ type: 'LimitsConfigured', data: { users: 2 } }]);
  });

  it.each([
    ['users', -1, 'out_of_range'],
    ['contentSections', 2.5, 'not_an_integer'],
    ['qualityAssuranceDomains', '3', 'not_an_integer'],
    ['webAnalyticsDomains', 1_000_000_001, 'out_of_range'],
  ])('refuses %s = %p', (field, value, reason) => {
    given(onChorusPlan('teams'))
      .when({ type: 'ConfigureLimits', data: { [field]: value } } as ConfigureLimits)
      .thenThrows('VALIDATION_FAILED', { field, reason });
  });

  it('accepts the largest limit, 1 000 000 000', () => {
    given(onChorusPlan('teams'))
      .when({ type: 'ConfigureLimits', data: { users: 1_000_000_000 } })
      .then([{ type: 'LimitsConfigured', data: { users: 1_000_000_000 } }]);
  });

  it('refuses an override that is not a boolean', () => {
    given(onChorusPlan('teams'))
      .when({ type: 'ConfigureLimits', data: { override: 1 } } as unknown as ConfigureLimits)
      .thenThrows('VALIDATION_FAILED', { field: 'override', reason: 'not_a_boolean' });
  });

  it('leaves fields it does not know out of the event', () => {
    given(onChorusPlan('teams'))
      .when({ type: 'ConfigureLimits', data: { users: 3, trafficPerMonth: 5 } } as unknown as ConfigureLimits)
      .then([{ type: 'LimitsConfigured', data: { users: 3 } }]);
  });
});
