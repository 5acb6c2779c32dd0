import { describe, expect, it } from '@jest/globals';
import { foldOrganization } from '../organization/evolve.js';
import type { ExistingOrganization } from '../organization/state.js';
import type { OrganizationEvent } from '../organization/events.js';
import { createPlanCatalogue } from '../plans/plan-catalogue.js';
import {
  limitsConfigured,
  onChorusPlan,
  onClassicPlan,
  organizationCreated,
  sitesAdded,
} from '../testing/organization-events.js';
import { ENTITLEMENT_KEYS, organizationEntitlements } from './entitlements.js';

const catalogue = createPlanCatalogue();
const fold = (events: OrganizationEvent[]) => foldOrganization(events) as ExistingOrganization;
const flags = (events: OrganizationEvent[], users = 0, trafficThisPeriod = 0) =>
  organizationEntitlements(fold(events), catalogue, { users, trafficThisPeriod });

describe('entitlements', () => {
  it('has every key, and only the keys listed', () => {
    expect([...flags(onClassicPlan('professional')).keys()]).toEqual(ENTITLEMENT_KEYS);
    expect(ENTITLEMENT_KEYS).toHaveLength(1 + 1 + 17 + 1 + 5);
  });

  it('says DEFAULT and plan none while nothing decided, TARGETING_MATCH once a plan did', () => {
    const none = flags([organizationCreated()]);
    expect(none.get('plan')).toEqual({ value: 'none', reason: 'DEFAULT' });
    expect(none.get('chorus.feedback')).toEqual({ value: false, reason: 'DEFAULT' });
    expect(flags(onClassicPlan('professional')).get('plan')).toEqual({
      value: 'classic:professional',
      reason: 'TARGETING_MATCH',
    });
  });

  it('gives the Chorus features of the enabled Chorus plan, by their seed names', () => {
    const teams = flags(onChorusPlan('teams'));
    expect(teams.get('chorus')?.value).toBe(true);
    expect(teams.get('plan')?.value).toBe('chorus:teams');
    expect(typeof teams.get('chorus.multiUser')?.value).toBe('boolean');
  });

  it('counts what is used against the effective limit, and says when it is exceeded (a downgrade below usage)', () => {
    const events = [
      ...onClassicPlan('enterprise'),
      ...sitesAdded(3),
      limitsConfigured({ contentSections: 2, users: 5 }),
    ];
    expect(flags(events, 4).get('limits.users')?.value).toEqual({
      limit: 5,
      used: 4,
      remaining: 1,
      exceeded: false,
      exceededBy: 0,
      override: false,
    });
    expect(flags(events, 4).get('limits.contentSections')?.value).toMatchObject({
      limit: 2,
      used: 3,
      remaining: 0,
      exceeded: true,
      exceededBy: 1,
    });
    expect(flags(events, 4, 1234).get('limits.trafficPerMonth')?.value).toMatchObject({ used: 1234 });
  });
});
