// Each plan's limits at the boundary: the last one that fits, the first that does not.
import { describe, it } from '@jest/globals';
import type { OrganizationCommand } from '../organization/commands.js';
import type { OrganizationEvent } from '../organization/events.js';
import type { PlanCatalogue } from '../plans/catalogue.js';
import { given, testCatalogue } from '../testing/given-when-then.js';
import {
  addOnCancelled,
  addOnPurchased,
  chorusDisabled,
  chorusPlanAssigned,
  classicPlanAssigned,
  limitsConfigured,
  membersAdded,
  onChorusPlan,
  onClassicPlan,
  organizationCreated,
  qualityAssuranceDomainsAdded,
  sitesAdded,
  chorusEnabled,
  webAnalyticsDomainsAdded,
} from '../testing/organization-events.js';

type Resource = 'users' | 'contentSections' | 'qualityAssuranceDomains' | 'webAnalyticsDomains';

const ADD: Record<
  Resource,
  { command: OrganizationCommand; decided: OrganizationEvent; fill: (count: number) => OrganizationEvent[] }
> = {
  users: {
    command: { type: 'AddMember', data: { userId: 'new-user', email: 'new@example.com', role: 'member' } },
    decided: {
      type: 'MemberAdded',
      data: { userId: 'new-user', email: 'new@example.com', role: 'member', chorusUser: false },
    },
    fill: membersAdded,
  },
  contentSections: {
    command: { type: 'AddSite', data: { siteId: 'new-site', name: 'New', hostname: 'new.example.com' } },
    decided: { type: 'SiteAdded', data: { siteId: 'new-site', name: 'New', hostname: 'new.example.com' } },
    fill: sitesAdded,
  },
  qualityAssuranceDomains: {
    command: { type: 'AddQualityAssuranceDomain', data: { domain: 'new.example.com' } },
    decided: { type: 'QualityAssuranceDomainAdded', data: { domain: 'new.example.com' } },
    fill: qualityAssuranceDomainsAdded,
  },
  webAnalyticsDomains: {
    command: { type: 'AddWebAnalyticsDomain', data: { domain: 'new.example.com' } },
    decided: { type: 'WebAnalyticsDomainAdded', data: { domain: 'new.example.com' } },
    fill: webAnalyticsDomainsAdded,
  },
};

/** The limit-th item fits, the (limit + 1)-th is refused with LimitExceeded(resource, limit, limit). */
function expectLimit(
  history: OrganizationEvent[],
  resource: Resource,
  limit: number,
  catalogue: PlanCatalogue = testCatalogue,
): void {
  const { command, decided, fill } = ADD[resource];
  given([...history, ...fill(limit - 1)], { catalogue })
    .when(command)
    .then([decided]);
  given([...history, ...fill(limit)], { catalogue })
    .when(command)
    .thenThrows('LIMIT_EXCEEDED', { resource, limit, count: limit });
}

/** Far beyond every figure in the seed's table, one more still fits. */
function expectUnlimited(
  history: OrganizationEvent[],
  resource: Resource,
  catalogue: PlanCatalogue = testCatalogue,
): void {
  const { command, decided, fill } = ADD[resource];
  given([...history, ...fill(1001)], { catalogue })
    .when(command)
    .then([decided]);
}

describe('each plan at its limits (effective = lower of the plan limit and the hard limit)', () => {
  it.each([
    ['essential', 1],
    ['professional', 2],
    ['enterprise', 1000],
  ] as const)('Classic %s: users unlimited (not shown), content sections %p', (plan, contentSections) => {
    const history = onClassicPlan(plan);
    expectUnlimited(history, 'users');
    expectLimit(history, 'contentSections', contentSections);
  });

  it.each([
    ['light', 1, 1],
    ['solo', 1, 1],
    ['teams', 5, 2],
    ['enterprise', 1000, 1000],
  ] as const)('Chorus %s: users %p, content sections %p', (plan, users, contentSections) => {
    const history = onChorusPlan(plan);
    expectLimit(history, 'users', users);
    expectLimit(history, 'contentSections', contentSections);
  });
});

describe('hard limits', () => {
  it.each(['solo', 'light'] as const)('%s: add-ons raise users to the hard limit of 2 and no further', (plan) => {
    expectLimit([...onChorusPlan(plan), addOnPurchased('additionalUser', 1)], 'users', 2);
    expectLimit([...onChorusPlan(plan), addOnPurchased('additionalUser', 5)], 'users', 2);
  });

  it.each(['solo', 'light'] as const)('%s: content sections stay at the hard limit of 1 whatever is bought', (plan) => {
    expectLimit([...onChorusPlan(plan), addOnPurchased('additionalContentSection', 3)], 'contentSections', 1);
  });

  it('teams: add-ons raise users to the hard limit of 10 and no further; content sections have no hard limit', () => {
    expectLimit([...onChorusPlan('teams'), addOnPurchased('additionalUser', 4)], 'users', 9);
    expectLimit([...onChorusPlan('teams'), addOnPurchased('additionalUser', 6)], 'users', 10);
    expectLimit([...onChorusPlan('teams'), addOnPurchased('additionalContentSection', 10)], 'contentSections', 12);
  });

  it('a configured limit above the hard limit is held to it, below it wins', () => {
    expectLimit([...onChorusPlan('teams'), limitsConfigured({ users: 50 })], 'users', 10);
    expectLimit([...onChorusPlan('teams'), limitsConfigured({ users: 3 })], 'users', 3);
  });
});

describe('override', () => {
  it('on: the hard limit is ignored and the configured limit alone applies', () => {
    expectLimit(
      [...onChorusPlan('solo'), addOnPurchased('additionalUser', 5), limitsConfigured({ override: true })],
      'users',
      6,
    );
    expectLimit(
      [...onChorusPlan('solo'), addOnPurchased('additionalContentSection', 2), limitsConfigured({ override: true })],
      'contentSections',
      3,
    );
    expectLimit([...onChorusPlan('teams'), limitsConfigured({ users: 50, override: true })], 'users', 50);
  });

  it('off again: the hard limit is back', () => {
    expectLimit(
      [
        ...onChorusPlan('teams'),
        limitsConfigured({ users: 50, override: true }),
        limitsConfigured({ override: false }),
      ],
      'users',
      10,
    );
  });

  it('on, with a configured limit below the hard limit: the configured limit still applies', () => {
    expectLimit([...onChorusPlan('teams'), limitsConfigured({ users: 3, override: true })], 'users', 3);
  });
});

describe('0 means unlimited', () => {
  it('a configured 0 lifts the configured limit; the hard limit still applies without override', () => {
    expectLimit([...onChorusPlan('teams'), limitsConfigured({ users: 0 })], 'users', 10);
    expectUnlimited([...onChorusPlan('teams'), limitsConfigured({ contentSections: 0 })], 'contentSections');
  });

  it('a configured 0 with override is unlimited', () => {
    expectUnlimited([...onChorusPlan('solo'), limitsConfigured({ users: 0, override: true })], 'users');
  });

  it("a plan's own 0 (the table's QA domains) is unlimited where the feature is on", () => {
    const teamsWithQualityAssurance: PlanCatalogue = {
      ...testCatalogue,
      plans: testCatalogue.plans.map((spec) =>
        spec.line === 'chorus' && spec.name === 'teams' && spec.organizationDefaults.chorusFeatures
          ? {
              ...spec,
              organizationDefaults: {
                ...spec.organizationDefaults,
                chorusFeatures: { ...spec.organizationDefaults.chorusFeatures, qualityAssurance: true },
              },
            }
          : spec,
      ),
    };
    expectUnlimited(onChorusPlan('teams'), 'qualityAssuranceDomains', teamsWithQualityAssurance);
  });

  it('a hard limit of 0 is no hard limit', () => {
    const soloWithoutHardLimits: PlanCatalogue = {
      ...testCatalogue,
      plans: testCatalogue.plans.map((spec) =>
        spec.name === 'solo' ? { ...spec, hardLimits: { ...spec.hardLimits, users: 0 } } : spec,
      ),
    };
    expectLimit([...onChorusPlan('solo'), addOnPurchased('additionalUser', 4)], 'users', 5, soloWithoutHardLimits);
  });
});

describe('add-ons', () => {
  it('additionalContentSection: +1 content section per unit', () => {
    expectLimit([...onClassicPlan('professional'), addOnPurchased('additionalContentSection')], 'contentSections', 3);
    expectLimit(
      [...onClassicPlan('professional'), addOnPurchased('additionalContentSection', 3)],
      'contentSections',
      5,
    );
  });

  it('additionalUser: +1 user per unit, units from several purchases add up', () => {
    expectLimit(
      [...onChorusPlan('teams'), addOnPurchased('additionalUser'), addOnPurchased('additionalUser', 2)],
      'users',
      8,
    );
  });

  it('cancelled units no longer count', () => {
    expectLimit(
      [...onChorusPlan('teams'), addOnPurchased('additionalUser', 3), addOnCancelled('additionalUser', 2)],
      'users',
      6,
    );
  });

  it('qualityAssurance: +1 QA domain per unit on top of the plan figure 0', () => {
    expectLimit([...onChorusPlan('teams'), addOnPurchased('qualityAssurance')], 'qualityAssuranceDomains', 1);
    expectLimit([...onChorusPlan('solo'), addOnPurchased('qualityAssurance', 3)], 'qualityAssuranceDomains', 3);
  });

  it('qualityAssurance on a plan without a QA domain limit stays unlimited', () => {
    expectUnlimited([...onChorusPlan('enterprise'), addOnPurchased('qualityAssurance')], 'qualityAssuranceDomains');
  });

  it('the additions do not apply to a configured limit', () => {
    expectLimit(
      [...onChorusPlan('teams'), addOnPurchased('additionalUser', 3), limitsConfigured({ users: 4 })],
      'users',
      4,
    );
  });

  it('feedback changes no limit', () => {
    expectLimit([...onChorusPlan('teams'), addOnPurchased('feedback', 2)], 'users', 5);
    expectLimit([...onChorusPlan('teams'), addOnPurchased('feedback', 2)], 'contentSections', 2);
  });
});

describe('web analytics domains: fixed at 1000', () => {
  it('on Chorus enterprise (the table: not shown) the 1000th fits and the 1001st does not', () => {
    expectLimit(onChorusPlan('enterprise'), 'webAnalyticsDomains', 1000);
  });

  it('on teams with the add-on (the table: 0) the limit is 1000 too, the add-on does not add to it', () => {
    expectLimit([...onChorusPlan('teams'), addOnPurchased('webAnalytics', 2)], 'webAnalyticsDomains', 1000);
  });

  it('a configured limit may lower it', () => {
    expectLimit(
      [...onChorusPlan('enterprise'), limitsConfigured({ webAnalyticsDomains: 3 })],
      'webAnalyticsDomains',
      3,
    );
  });

  it('a configured limit never raises it above 1000, nor makes it unlimited (0), even with override', () => {
    expectLimit(
      [...onChorusPlan('enterprise'), limitsConfigured({ webAnalyticsDomains: 5000 })],
      'webAnalyticsDomains',
      1000,
    );
    expectLimit(
      [...onChorusPlan('enterprise'), limitsConfigured({ webAnalyticsDomains: 0 })],
      'webAnalyticsDomains',
      1000,
    );
    expectLimit(
      [...onChorusPlan('enterprise'), limitsConfigured({ webAnalyticsDomains: 5000, override: true })],
      'webAnalyticsDomains',
      1000,
    );
  });
});

describe('which plan governs', () => {
  const bothLines = [organizationCreated(), classicPlanAssigned('essential'), chorusPlanAssigned('teams')];

  it('the Classic plan while Chorus is disabled', () => {
    expectLimit(bothLines, 'contentSections', 1);
    expectLimit([...bothLines, chorusEnabled(), chorusDisabled()], 'contentSections', 1);
  });

  it('the Chorus plan while Chorus is enabled', () => {
    expectLimit([...bothLines, chorusEnabled()], 'contentSections', 2);
    expectLimit([...bothLines, chorusEnabled()], 'users', 5);
  });

  it('the Classic plan when Chorus is enabled without a Chorus plan', () => {
    expectLimit([organizationCreated(), classicPlanAssigned('professional'), chorusEnabled()], 'contentSections', 2);
  });
});
