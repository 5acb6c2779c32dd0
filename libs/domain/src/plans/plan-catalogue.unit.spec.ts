import { describe, expect, it } from '@jest/globals';
import { CHORUS_FEATURES, type Limit, type Line, type PlanName, type PlanSpec } from './catalogue.js';
import { createPlanCatalogue } from './plan-catalogue.js';
import { findPlan } from './find-plan.js';
import { CHORUS_PLANS, CLASSIC_PLANS } from './plan-lines.js';

const catalogue = createPlanCatalogue();
const plan = (line: Line, name: PlanName): PlanSpec => {
  const spec = findPlan(catalogue, line, name);
  if (!spec) throw new Error(`no ${line} ${name} in the catalogue`);
  return spec;
};

// Seed section 9, "Plan limits", written out again: 'not shown' = null (unlimited), hard 'not shown'/'none' = null.
type Row = [
  Line,
  PlanName,
  contentSections: Limit,
  users: Limit,
  traffic: number,
  qa: Limit,
  wa: Limit,
  hardSections: Limit,
  hardUsers: Limit,
];
const SEED_TABLE: Row[] = [
  ['classic', 'essential', 1, null, 500000, null, null, null, null],
  ['classic', 'professional', 2, null, 2000000, null, null, null, null],
  ['classic', 'enterprise', 1000, null, 2000000000, null, null, null, null],
  ['chorus', 'solo', 1, 1, 100000, 0, 0, 1, 2],
  ['chorus', 'teams', 2, 5, 1000000, 0, 0, null, 10],
  ['chorus', 'enterprise', 1000, 1000, 2000000000, null, null, null, null],
  ['chorus', 'light', 1, 1, 50000, 0, 0, 1, 2],
];

describe('the plan catalogue', () => {
  it('holds exactly the seven plans of the two lines', () => {
    expect(catalogue.plans.map((spec) => `${spec.line}:${spec.name}`)).toEqual([
      'classic:essential',
      'classic:professional',
      'classic:enterprise',
      'chorus:solo',
      'chorus:teams',
      'chorus:enterprise',
      'chorus:light',
    ]);
  });

  it.each(SEED_TABLE)(
    '%s %s has the seed table figures',
    (line, name, sections, users, traffic, qa, wa, hardSections, hardUsers) => {
      const spec = plan(line, name);
      expect(spec.limits).toStrictEqual({
        contentSections: sections,
        users,
        trafficPerMonth: traffic,
        qualityAssuranceDomains: qa,
        webAnalyticsDomains: wa,
      });
      expect(spec.hardLimits).toStrictEqual({
        contentSections: hardSections,
        users: hardUsers,
        qualityAssuranceDomains: null,
        webAnalyticsDomains: null,
      });
    },
  );

  it('gives every plan every field of the plan specification', () => {
    for (const spec of catalogue.plans) {
      expect(Object.keys(spec.siteDefaults.features).sort()).toEqual(
        [
          'anonymizeFeedback',
          'customCTAs',
          'floatingShareButtons',
          'integrations',
          'live',
          'logo',
          'reports',
          'timeFilter',
          'timeFilterMigrated',
          'userInputs',
        ].sort(),
      );
      expect(Object.keys(spec.siteDefaults.report).sort()).toEqual(['monthly', 'weekly']);
      expect(typeof spec.siteDefaults.live).toBe('boolean');
      expect(spec.siteDefaults.live).toBe(spec.siteDefaults.features.live);
      expect(typeof spec.organizationDefaults.features.multiSite).toBe('boolean');
      expect(Object.keys(spec.customSetDefaults.features).sort()).toEqual(['integrations', 'logo']);
      expect(spec.linkedProductIds).toEqual([]);
      expect(spec).toHaveProperty('paymentProviderId');
    }
  });

  it('gives the Chorus plans chorusDetails.plan and all 17 chorusFeatures, and the Classic plans neither', () => {
    for (const name of CHORUS_PLANS) {
      const spec = plan('chorus', name);
      expect(spec.organizationDefaults.chorusDetails).toEqual({ plan: name });
      expect(Object.keys(spec.organizationDefaults.chorusFeatures ?? {}).sort()).toEqual([...CHORUS_FEATURES].sort());
      expect(CHORUS_FEATURES).toHaveLength(17);
    }
    for (const name of CLASSIC_PLANS) {
      expect(plan('classic', name).organizationDefaults.chorusDetails).toBeUndefined();
      expect(plan('classic', name).organizationDefaults.chorusFeatures).toBeUndefined();
    }
  });

  it('turns matomoIntegration on for teams only', () => {
    const withMatomo = CHORUS_PLANS.filter(
      (name) => plan('chorus', name).organizationDefaults.chorusFeatures?.matomoIntegration,
    );
    expect(withMatomo).toEqual(['teams']);
  });

  it('gives Chorus enterprise every Chorus feature except matomoIntegration (the seed wins over the domain notes)', () => {
    const features = plan('chorus', 'enterprise').organizationDefaults.chorusFeatures ?? {};
    const off = Object.entries(features)
      .filter(([, on]) => !on)
      .map(([feature]) => feature);
    expect(off).toEqual(['matomoIntegration']);
  });

  it('never gives a higher tier less than a lower one (matomoIntegration aside)', () => {
    const asFlags = (spec: PlanSpec): Record<string, boolean> => ({
      ...Object.fromEntries(Object.entries(spec.siteDefaults.features).map(([k, v]) => [`site.${k}`, v])),
      'report.weekly': spec.siteDefaults.report.weekly,
      'report.monthly': spec.siteDefaults.report.monthly,
      live: spec.siteDefaults.live,
      multiSite: spec.organizationDefaults.features.multiSite,
      'customSet.logo': spec.customSetDefaults.features.logo,
      'customSet.integrations': spec.customSetDefaults.features.integrations,
      ...Object.fromEntries(
        Object.entries(spec.organizationDefaults.chorusFeatures ?? {})
          .filter(([feature]) => feature !== 'matomoIntegration')
          .map(([k, v]) => [`chorus.${k}`, v]),
      ),
    });
    const capacity = (limit: Limit): number => (limit === null || limit === 0 ? Infinity : limit);
    const tiers: [Line, readonly PlanName[]][] = [
      ['classic', CLASSIC_PLANS],
      ['chorus', CHORUS_PLANS],
    ];
    for (const [line, names] of tiers) {
      for (let i = 1; i < names.length; i++) {
        const lower = plan(line, names[i - 1] as PlanName);
        const higher = plan(line, names[i] as PlanName);
        const lowerFlags = asFlags(lower);
        const higherFlags = asFlags(higher);
        for (const [flag, on] of Object.entries(lowerFlags)) {
          if (on)
            expect({ plan: higher.name, flag, on: higherFlags[flag] }).toEqual({ plan: higher.name, flag, on: true });
        }
        expect(higher.limits.trafficPerMonth ?? Infinity).toBeGreaterThanOrEqual(
          lower.limits.trafficPerMonth ?? Infinity,
        );
        for (const resource of ['users', 'contentSections'] as const) {
          expect(capacity(higher.limits[resource])).toBeGreaterThanOrEqual(capacity(lower.limits[resource]));
          expect(capacity(higher.hardLimits[resource])).toBeGreaterThanOrEqual(capacity(lower.hardLimits[resource]));
        }
      }
    }
  });

  it('marks an organization multi-site exactly when its plan allows more than one content section', () => {
    for (const spec of catalogue.plans) {
      expect(spec.organizationDefaults.features.multiSite).toBe(spec.limits.contentSections !== 1);
    }
  });

  describe('payment-provider ids from PLAN_PAYMENT_PROVIDER_IDS', () => {
    it('reads index 0 for essential, 1 for professional and 3 for the additional content section', () => {
      const withIds = createPlanCatalogue({ paymentProviderIds: ['p-ess', 'p-pro', 'p-two', 'p-section', 'p-four'] });
      const ids = Object.fromEntries(
        withIds.plans.map((spec) => [`${spec.line}:${spec.name}`, spec.paymentProviderId]),
      );
      expect(ids).toEqual({
        'classic:essential': 'p-ess',
        'classic:professional': 'p-pro',
        'classic:enterprise': null,
        'chorus:solo': null,
        'chorus:teams': null,
        'chorus:enterprise': null,
        'chorus:light': null,
      });
      expect(Object.fromEntries(withIds.addOns.map((addOn) => [addOn.name, addOn.paymentProviderId]))).toEqual({
        additionalContentSection: 'p-section',
        additionalUser: null,
        qualityAssurance: null,
        webAnalytics: null,
        feedback: null,
      });
    });

    it('leaves a missing or empty entry as null: that product cannot be bought through billing', () => {
      const shortList = createPlanCatalogue({ paymentProviderIds: ['', ' p-pro '] });
      expect(findPlan(shortList, 'classic', 'essential')?.paymentProviderId).toBeNull();
      expect(findPlan(shortList, 'classic', 'professional')?.paymentProviderId).toBe('p-pro');
      expect(shortList.addOns.find((addOn) => addOn.name === 'additionalContentSection')?.paymentProviderId).toBeNull();
      expect(createPlanCatalogue().plans.every((spec) => spec.paymentProviderId === null)).toBe(true);
    });
  });
});

describe('findPlan', () => {
  it('finds a plan by line and name and tells the two enterprise plans apart', () => {
    expect(findPlan(catalogue, 'classic', 'enterprise')?.limits.users).toBeNull();
    expect(findPlan(catalogue, 'chorus', 'enterprise')?.limits.users).toBe(1000);
  });

  it('finds nothing for a plan of the other line', () => {
    expect(findPlan(catalogue, 'classic', 'solo')).toBeUndefined();
    expect(findPlan(catalogue, 'chorus', 'essential')).toBeUndefined();
  });
});
