import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DomainError, type LimitedResource } from '../errors.js';
import { LIMITED_RESOURCES } from '../limits/limited-resources.js';
import { ADD_ONS, CHORUS_PLANS, CLASSIC_PLANS, SERVICE_LEVELS } from '../plans/plan-lines.js';
import { deepFreeze, testCatalogue } from '../testing/given-when-then.js';
import {
  addOnPurchased,
  chorusEnabled,
  chorusPlanAssigned,
  classicPlanAssigned,
  limitsConfigured,
  memberAdded,
  onChorusPlan,
  organizationCreated,
  sitesAdded,
} from '../testing/organization-events.js';
import type { OrganizationCommand } from './commands.js';
import { decide } from './decisions.js';
import type { OrganizationEvent } from './events.js';
import { evolve, foldOrganization } from './evolve.js';
import { MEMBER_ROLES } from './member-roles.js';
import { organizationView } from './organization-view.js';
import { operator } from './requester.js';
import type { ExistingOrganization, OrganizationState } from './state.js';

const viewOf = (events: OrganizationEvent[]) => {
  const state = foldOrganization(events);
  if (!state.exists) throw new Error('expected an organization');
  return organizationView(deepFreeze(state), testCatalogue);
};

describe('organizationView', () => {
  it('shows the whole organization', () => {
    const view = viewOf([
      organizationCreated('org-1', 'Acme'),
      classicPlanAssigned('essential'),
      chorusPlanAssigned('teams', 'assisted'),
      chorusEnabled(true),
      addOnPurchased('additionalUser', 2),
      addOnPurchased('qualityAssurance'),
      limitsConfigured({ contentSections: 0 }),
      memberAdded(1, 'owner', true),
      memberAdded(2, 'member', false),
      { type: 'SiteAdded', data: { siteId: 'site-1', name: 'Books', hostname: 'xn--bcher-kva.de' } },
      { type: 'QualityAssuranceDomainAdded', data: { domain: 'xn--mnchen-3ya.de' } },
    ]);
    const teams = testCatalogue.plans.find((spec) => spec.line === 'chorus' && spec.name === 'teams');
    expect(view).toEqual({
      id: 'org-1',
      name: 'Acme',
      plan: 'essential',
      chorus: true,
      chorusDetails: { plan: 'teams', parallelUse: true },
      chorusFeatures: {
        ...teams?.organizationDefaults.chorusFeatures,
        qualityAssurance: true,
        multiUser: true,
        chatSupport: true,
      },
      features: { multiSite: true },
      serviceLevel: 'assisted',
      addOns: { additionalUser: 2, qualityAssurance: 1 },
      governingPlan: { line: 'chorus', plan: 'teams' },
      limits: {
        configured: { users: 7, contentSections: null, qualityAssuranceDomains: 1, webAnalyticsDomains: 1000 },
        hard: { users: 10, contentSections: null, qualityAssuranceDomains: null, webAnalyticsDomains: null },
        effective: { users: 7, contentSections: null, qualityAssuranceDomains: 1, webAnalyticsDomains: 1000 },
        override: false,
        // contentSections: 0 was configured (unlimited): the setting, not the plan, says it.
        setByOperator: {
          users: false,
          contentSections: true,
          qualityAssuranceDomains: false,
          webAnalyticsDomains: false,
        },
        exceededBy: { users: 0, contentSections: 0, qualityAssuranceDomains: 0, webAnalyticsDomains: 0 },
      },
      usage: { users: 2, contentSections: 1, qualityAssuranceDomains: 1, webAnalyticsDomains: 0 },
      canAdd: { users: true, contentSections: true, qualityAssuranceDomains: false, webAnalyticsDomains: false },
      trafficPerMonth: 1_000_000,
      members: [
        { userId: 'user-1', email: 'user1@example.com', role: 'owner', chorusUser: true },
        { userId: 'user-2', email: 'user2@example.com', role: 'member', chorusUser: false },
      ],
      sites: [
        {
          siteId: 'site-1',
          name: 'Books',
          hostname: 'bücher.de',
          features: teams?.siteDefaults.features,
          report: teams?.siteDefaults.report,
          live: teams?.siteDefaults.live,
        },
      ],
      qualityAssurance: { domains: ['münchen.de'] },
      webAnalytics: { domains: [] },
      subscription: null,
      twoStepSignIn: { required: false },
      sso: { available: false, settings: null },
    });
  });

  it('shows members with the role they have now, in the order they were added', () => {
    const view = viewOf([
      ...onChorusPlan('teams'),
      memberAdded(1, 'owner'),
      memberAdded(2, 'member'),
      {
        type: 'MemberRoleChanged',
        data: { userId: 'user-2', email: 'user2@example.com', role: 'owner', previousRole: 'member' },
      },
      {
        type: 'MemberRoleChanged',
        data: { userId: 'user-1', email: 'user1@example.com', role: 'admin', previousRole: 'owner' },
      },
    ]);

    expect(view.members.map(({ userId, role }) => ({ userId, role }))).toEqual([
      { userId: 'user-1', role: 'admin' },
      { userId: 'user-2', role: 'owner' },
    ]);
    expect(view.usage.users).toBe(2);
  });

  it('takes the site settings from the governing plan: the Classic plan while Chorus is off', () => {
    const history = [
      organizationCreated(),
      classicPlanAssigned('essential'),
      chorusPlanAssigned('enterprise'),
      ...sitesAdded(1),
    ];
    const essential = testCatalogue.plans.find((spec) => spec.name === 'essential');
    const enterprise = testCatalogue.plans.find((spec) => spec.line === 'chorus' && spec.name === 'enterprise');
    expect(viewOf(history).sites[0]?.features).toEqual(essential?.siteDefaults.features);
    expect(viewOf(history).sites[0]?.report).toEqual({ weekly: true, monthly: false });
    expect(viewOf([...history, chorusEnabled()]).sites[0]?.features).toEqual(enterprise?.siteDefaults.features);
    expect(viewOf([...history, chorusEnabled()]).trafficPerMonth).toBe(2_000_000_000);
  });

  it('shows an organization with no plan: nothing to govern, nothing fits but the first owner', () => {
    const view = viewOf([organizationCreated(), addOnPurchased('additionalUser')]);
    expect(view.plan).toBeNull();
    expect(view.governingPlan).toBeNull();
    expect(view.trafficPerMonth).toBeNull();
    expect(view.features).toEqual({ multiSite: false });
    expect(view.chorusDetails).toEqual({ plan: null, parallelUse: null });
    expect(Object.values(view.chorusFeatures).some(Boolean)).toBe(false);
    expect(view.canAdd).toEqual({
      users: true,
      contentSections: false,
      qualityAssuranceDomains: false,
      webAnalyticsDomains: false,
    });
    expect(viewOf([organizationCreated(), memberAdded(1, 'owner')]).canAdd.users).toBe(false);
  });

  it('shows sites with every feature off when no plan governs any more', () => {
    const view = viewOf([...onChorusPlan('teams'), ...sitesAdded(1), { type: 'ChorusDisabled', data: {} }]);
    expect(view.sites[0]).toMatchObject({ live: false, report: { weekly: false, monthly: false } });
    expect(Object.values(view.sites[0]?.features ?? { any: true }).some(Boolean)).toBe(false);
  });

  it('says one more fits until the limit is reached', () => {
    expect(viewOf([...onChorusPlan('teams'), ...sitesAdded(1)]).canAdd.contentSections).toBe(true);
    expect(viewOf([...onChorusPlan('teams'), ...sitesAdded(2)]).canAdd.contentSections).toBe(false);
  });

  it('writes unlimited as null, never 0', () => {
    const view = viewOf([...onChorusPlan('solo'), limitsConfigured({ users: 0, override: true })]);
    expect(view.limits.configured.users).toBeNull();
    expect(view.limits.effective.users).toBeNull();
    expect(view.limits.configured.qualityAssuranceDomains).toBeNull();
    expect(view.limits.override).toBe(true);
  });
});

// Random command histories, applied through decide like the command handler does.
const member = fc.constantFrom('m1', 'm2', 'm3', 'm4', 'm5', 'm6');
const host = fc.constantFrom('a.example.com', 'b.example.com', 'c.example.com', 'd.example.com');
const smallLimit = fc.option(fc.nat({ max: 4 }), { nil: null });
const anyCommand: fc.Arbitrary<OrganizationCommand> = fc.oneof(
  fc
    .oneof(
      fc.record(
        {
          line: fc.constant('classic' as const),
          plan: fc.constantFrom(...CLASSIC_PLANS),
          serviceLevel: fc.constantFrom(...SERVICE_LEVELS),
        },
        { requiredKeys: ['line', 'plan'] },
      ),
      fc.record(
        {
          line: fc.constant('chorus' as const),
          plan: fc.constantFrom(...CHORUS_PLANS),
          serviceLevel: fc.constantFrom(...SERVICE_LEVELS),
        },
        { requiredKeys: ['line', 'plan'] },
      ),
    )
    .map((data): OrganizationCommand => ({ type: 'AssignPlan', data })),
  fc
    .record({ addOn: fc.constantFrom(...ADD_ONS), quantity: fc.integer({ min: 1, max: 2 }) })
    .map((data): OrganizationCommand => ({ type: 'PurchaseAddOn', data })),
  fc.record({ addOn: fc.constantFrom(...ADD_ONS) }).map((data): OrganizationCommand => ({ type: 'CancelAddOn', data })),
  fc
    .record({ parallelUse: fc.boolean() }, { requiredKeys: [] })
    .map((data): OrganizationCommand => ({ type: 'EnableChorus', data })),
  fc.constant<OrganizationCommand>({ type: 'DisableChorus', data: {} }),
  fc
    .record(
      {
        users: smallLimit,
        contentSections: smallLimit,
        qualityAssuranceDomains: smallLimit,
        webAnalyticsDomains: smallLimit,
        override: fc.boolean(),
      },
      { requiredKeys: [] },
    )
    .map((data): OrganizationCommand => ({ type: 'ConfigureLimits', data })),
  fc
    .record({ userId: member, role: fc.constantFrom(...MEMBER_ROLES) })
    .map(({ userId, role }): OrganizationCommand => ({
      type: 'AddMember',
      data: { userId, email: `${userId}@example.com`, role },
    })),
  member.map((userId): OrganizationCommand => ({ type: 'RemoveMember', data: { userId } })),
  fc
    .record({ userId: member, role: fc.constantFrom(...MEMBER_ROLES) })
    .map((data): OrganizationCommand => ({ type: 'ChangeMemberRole', data })),
  host.map((hostname): OrganizationCommand => ({
    type: 'AddSite',
    data: { siteId: hostname.slice(0, 1), name: hostname, hostname },
  })),
  host.map((hostname): OrganizationCommand => ({ type: 'RemoveSite', data: { siteId: hostname.slice(0, 1) } })),
  host.map((domain): OrganizationCommand => ({ type: 'AddQualityAssuranceDomain', data: { domain } })),
  host.map((domain): OrganizationCommand => ({ type: 'RemoveQualityAssuranceDomain', data: { domain } })),
  host.map((domain): OrganizationCommand => ({ type: 'AddWebAnalyticsDomain', data: { domain } })),
  host.map((domain): OrganizationCommand => ({ type: 'RemoveWebAnalyticsDomain', data: { domain } })),
);

const organizationAfter = (commands: OrganizationCommand[]): ExistingOrganization => {
  let state: OrganizationState = foldOrganization([organizationCreated()]);
  for (const command of commands) {
    try {
      state = decide(command, state, { catalogue: testCatalogue, requester: operator }).reduce(evolve, state);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
  }
  return state as ExistingOrganization;
};

const ONE_MORE: Record<LimitedResource, OrganizationCommand> = {
  users: { type: 'AddMember', data: { userId: 'fresh', email: 'fresh@example.com', role: 'owner' } },
  contentSections: { type: 'AddSite', data: { siteId: 'fresh', name: 'Fresh', hostname: 'fresh.example.com' } },
  qualityAssuranceDomains: { type: 'AddQualityAssuranceDomain', data: { domain: 'fresh.example.com' } },
  webAnalyticsDomains: { type: 'AddWebAnalyticsDomain', data: { domain: 'fresh.example.com' } },
};

const accepts = (state: ExistingOrganization, command: OrganizationCommand): boolean => {
  try {
    decide(command, state, { catalogue: testCatalogue, requester: operator });
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
};

/** The effective limit where the resource can be used at all: a plan's 0 QA domains without the feature is no room. */
const usableLimit = (view: ReturnType<typeof organizationView>, resource: LimitedResource): number => {
  const feature = { qualityAssuranceDomains: 'qualityAssurance', webAnalyticsDomains: 'webAnalytics' } as const;
  const needs =
    resource === 'qualityAssuranceDomains' || resource === 'webAnalyticsDomains' ? feature[resource] : undefined;
  if (needs && !view.chorusFeatures[needs]) return 0;
  return view.limits.effective[resource] ?? Infinity;
};

describe('organizationView, over random histories', () => {
  it('canAdd is true exactly when decide accepts one more', () => {
    fc.assert(
      fc.property(fc.array(anyCommand, { maxLength: 30 }), (commands) => {
        const state = organizationAfter(commands);
        const { canAdd } = organizationView(state, testCatalogue);
        for (const resource of LIMITED_RESOURCES) {
          expect({ resource, canAdd: canAdd[resource] }).toEqual({
            resource,
            canAdd: accepts(state, ONE_MORE[resource]),
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('usage never exceeds the effective limit when decide alone built the history and limits only grew', () => {
    const growingCommands = anyCommand.filter(
      (command) =>
        command.type !== 'ConfigureLimits' &&
        command.type !== 'CancelAddOn' &&
        command.type !== 'AssignPlan' &&
        command.type !== 'DisableChorus',
    );
    fc.assert(
      fc.property(fc.constantFrom(...CHORUS_PLANS), fc.array(growingCommands, { maxLength: 30 }), (plan, commands) => {
        const state = organizationAfter([
          { type: 'AssignPlan', data: { line: 'chorus', plan } },
          { type: 'EnableChorus', data: {} },
          ...commands,
        ]);
        const { usage, limits } = organizationView(state, testCatalogue);
        for (const resource of LIMITED_RESOURCES) {
          expect(usage[resource]).toBeLessThanOrEqual(limits.effective[resource] ?? Infinity);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('buying more add-on units never takes away room that was there', () => {
    fc.assert(
      fc.property(
        fc.array(anyCommand, { maxLength: 30 }),
        fc.constantFrom(...ADD_ONS),
        fc.integer({ min: 1, max: 3 }),
        (commands, addOn, quantity) => {
          const state = organizationAfter(commands);
          const before = organizationView(state, testCatalogue);
          const after = organizationView(
            evolve(state, { type: 'AddOnPurchased', data: { addOn, quantity } }) as ExistingOrganization,
            testCatalogue,
          );
          for (const resource of LIMITED_RESOURCES) {
            if (before.canAdd[resource])
              expect({ resource, canAdd: after.canAdd[resource] }).toEqual({ resource, canAdd: true });
            expect(usableLimit(after, resource)).toBeGreaterThanOrEqual(usableLimit(before, resource));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('organizationView: single sign-on', () => {
  it('shows whether the plan includes SSO and its settings in Unicode form, never the client secret', () => {
    const secret = 'v1.k1.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBB';
    const state = foldOrganization([
      organizationCreated(),
      chorusPlanAssigned('enterprise'),
      chorusEnabled(),
      {
        type: 'SsoConfigured',
        data: {
          issuer: 'https://idp.example',
          clientId: 'chorus',
          clientSecret: secret,
          domains: ['xn--bcher-kva.example', 'acme.example'],
          enforce: true,
        },
      },
      {
        type: 'SsoDomainPending',
        data: { domain: 'xn--bcher-kva.example', token: 'T'.repeat(32), at: '2030-01-01T00:00:00.000Z' },
      },
    ]);
    if (!state.exists) throw new Error('expected an organization');
    const view = organizationView(state, testCatalogue);
    expect(view.sso).toEqual({
      available: true,
      settings: {
        protocol: 'oidc',
        issuer: 'https://idp.example',
        clientId: 'chorus',
        domains: ['bücher.example', 'acme.example'],
        enforce: true,
        trustProviderMfa: false,
        domainStates: [
          {
            domain: 'bücher.example',
            status: 'pending',
            since: '2030-01-01T00:00:00.000Z',
            recordMissingSince: null,
            record: { name: '_chorus-verification.xn--bcher-kva.example', type: 'TXT', value: 'T'.repeat(32) },
            joinRole: null,
          },
          // Listed before verification existed: no record until the settings are saved again.
          {
            domain: 'acme.example',
            status: 'unverified',
            since: null,
            recordMissingSince: null,
            record: null,
            joinRole: null,
          },
        ],
      },
    });
    expect(JSON.stringify(view)).not.toContain(secret);
  });
});
