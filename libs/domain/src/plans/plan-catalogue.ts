// The plan catalogue as data, in one place. Limit figures are exactly the seed's section 9 table;
// 'not shown' and 'none' become null (unlimited). Feature values are our choice (see README).
import type {
  AddOn,
  AddOnSpec,
  CatalogueProductKey,
  ChorusFeature,
  ChorusFeatures,
  PlanCatalogue,
  PlanCatalogueOptions,
  PlanSpec,
  SiteFeatures,
} from './catalogue.js';
import { CHORUS_FEATURES } from './catalogue.js';
import { ADD_ONS } from './plan-lines.js';

const chorusFeatures = (on: readonly ChorusFeature[]): ChorusFeatures =>
  Object.fromEntries(CHORUS_FEATURES.map((feature) => [feature, on.includes(feature)])) as ChorusFeatures;

const siteFeatures = (on: readonly (keyof SiteFeatures)[]): SiteFeatures => ({
  customCTAs: on.includes('customCTAs'),
  integrations: on.includes('integrations'),
  live: on.includes('live'),
  logo: on.includes('logo'),
  reports: on.includes('reports'),
  timeFilter: on.includes('timeFilter'),
  // New sites start on the migrated time filter on every plan: nothing is left to migrate.
  timeFilterMigrated: true,
  userInputs: on.includes('userInputs'),
  floatingShareButtons: on.includes('floatingShareButtons'),
  anonymizeFeedback: on.includes('anonymizeFeedback'),
});

const BASIC_SITE: readonly (keyof SiteFeatures)[] = ['reports'];
const STANDARD_SITE: readonly (keyof SiteFeatures)[] = [...BASIC_SITE, 'timeFilter', 'userInputs'];
const ADVANCED_SITE: readonly (keyof SiteFeatures)[] = [
  ...STANDARD_SITE,
  'customCTAs',
  'integrations',
  'live',
  'logo',
  'floatingShareButtons',
];
const FULL_SITE: readonly (keyof SiteFeatures)[] = [...ADVANCED_SITE, 'anonymizeFeedback'];

const LIGHT_FEATURES: readonly ChorusFeature[] = ['emailNotifications', 'buttonToolGeneral'];
const SOLO_FEATURES: readonly ChorusFeature[] = [...LIGHT_FEATURES, 'feedback', 'feedbackNotes', 'buttonToolSentiment'];
const TEAMS_SHARED_FEATURES: readonly ChorusFeature[] = [
  ...SOLO_FEATURES,
  'multiSite',
  'multiUser',
  'feedbackAssigning',
  'feedbackLabeling',
  'buttonToolAfterReactions',
  'buttonToolHistory',
  'significantChangesReport',
];
// Seed section 3: "matomoIntegration (teams only)"; the seed wins over docs/domain.md's "enterprise has every feature".
const TEAMS_FEATURES: readonly ChorusFeature[] = [...TEAMS_SHARED_FEATURES, 'matomoIntegration'];
const ENTERPRISE_FEATURES: readonly ChorusFeature[] = CHORUS_FEATURES.filter(
  (feature) => feature !== 'matomoIntegration',
);

const noHardLimits = { users: null, contentSections: null, qualityAssuranceDomains: null, webAnalyticsDomains: null };
// Seed: solo's hard limits are "1 content section, 2 users"; light's are "as solo".
const soloHardLimits = { users: 2, contentSections: 1, qualityAssuranceDomains: null, webAnalyticsDomains: null };

type PlanData = Omit<PlanSpec, 'paymentProviderId' | 'linkedProductIds'>;

const PLANS: readonly PlanData[] = [
  {
    line: 'classic',
    name: 'essential',
    siteDefaults: { features: siteFeatures(BASIC_SITE), report: { weekly: true, monthly: false }, live: false },
    organizationDefaults: { features: { multiSite: false } },
    customSetDefaults: { features: { logo: false, integrations: false } },
    limits: {
      contentSections: 1,
      users: null,
      trafficPerMonth: 500_000,
      qualityAssuranceDomains: null,
      webAnalyticsDomains: null,
    },
    hardLimits: noHardLimits,
  },
  {
    line: 'classic',
    name: 'professional',
    siteDefaults: { features: siteFeatures(ADVANCED_SITE), report: { weekly: true, monthly: true }, live: true },
    organizationDefaults: { features: { multiSite: true } },
    customSetDefaults: { features: { logo: true, integrations: true } },
    limits: {
      contentSections: 2,
      users: null,
      trafficPerMonth: 2_000_000,
      qualityAssuranceDomains: null,
      webAnalyticsDomains: null,
    },
    hardLimits: noHardLimits,
  },
  {
    line: 'classic',
    name: 'enterprise',
    siteDefaults: { features: siteFeatures(FULL_SITE), report: { weekly: true, monthly: true }, live: true },
    organizationDefaults: { features: { multiSite: true } },
    customSetDefaults: { features: { logo: true, integrations: true } },
    limits: {
      contentSections: 1000,
      users: null,
      trafficPerMonth: 2_000_000_000,
      qualityAssuranceDomains: null,
      webAnalyticsDomains: null,
    },
    hardLimits: noHardLimits,
  },
  {
    line: 'chorus',
    name: 'solo',
    siteDefaults: { features: siteFeatures(STANDARD_SITE), report: { weekly: true, monthly: true }, live: false },
    organizationDefaults: {
      features: { multiSite: false },
      chorusDetails: { plan: 'solo' },
      chorusFeatures: chorusFeatures(SOLO_FEATURES),
    },
    customSetDefaults: { features: { logo: false, integrations: false } },
    limits: {
      contentSections: 1,
      users: 1,
      trafficPerMonth: 100_000,
      qualityAssuranceDomains: 0,
      webAnalyticsDomains: 0,
    },
    hardLimits: soloHardLimits,
  },
  {
    line: 'chorus',
    name: 'teams',
    siteDefaults: { features: siteFeatures(ADVANCED_SITE), report: { weekly: true, monthly: true }, live: true },
    organizationDefaults: {
      features: { multiSite: true },
      chorusDetails: { plan: 'teams' },
      chorusFeatures: chorusFeatures(TEAMS_FEATURES),
    },
    customSetDefaults: { features: { logo: true, integrations: true } },
    limits: {
      contentSections: 2,
      users: 5,
      trafficPerMonth: 1_000_000,
      qualityAssuranceDomains: 0,
      webAnalyticsDomains: 0,
    },
    hardLimits: { ...noHardLimits, users: 10 },
  },
  {
    line: 'chorus',
    name: 'enterprise',
    siteDefaults: { features: siteFeatures(FULL_SITE), report: { weekly: true, monthly: true }, live: true },
    organizationDefaults: {
      features: { multiSite: true },
      chorusDetails: { plan: 'enterprise' },
      chorusFeatures: chorusFeatures(ENTERPRISE_FEATURES),
    },
    customSetDefaults: { features: { logo: true, integrations: true } },
    limits: {
      contentSections: 1000,
      users: 1000,
      trafficPerMonth: 2_000_000_000,
      qualityAssuranceDomains: null,
      webAnalyticsDomains: null,
    },
    hardLimits: noHardLimits,
  },
  {
    line: 'chorus',
    name: 'light',
    siteDefaults: { features: siteFeatures(BASIC_SITE), report: { weekly: true, monthly: false }, live: false },
    organizationDefaults: {
      features: { multiSite: false },
      chorusDetails: { plan: 'light' },
      chorusFeatures: chorusFeatures(LIGHT_FEATURES),
    },
    customSetDefaults: { features: { logo: false, integrations: false } },
    limits: {
      contentSections: 1,
      users: 1,
      trafficPerMonth: 50_000,
      qualityAssuranceDomains: 0,
      webAnalyticsDomains: 0,
    },
    hardLimits: soloHardLimits,
  },
];

/** Seed section 9: index 0 essential, index 1 professional, index 3 the extra content section. */
const PAYMENT_PROVIDER_ID_INDEX: Partial<Record<`${PlanSpec['line']}:${PlanSpec['name']}` | AddOn, number>> = {
  'classic:essential': 0,
  'classic:professional': 1,
  additionalContentSection: 3,
};

const paymentProviderIdAt = (ids: readonly string[], index: number | undefined): string | null => {
  const id = index === undefined ? undefined : ids[index]?.trim();
  return id ? id : null;
};

export function createPlanCatalogue(options: PlanCatalogueOptions = {}): PlanCatalogue {
  const ids = options.paymentProviderIds ?? [];
  const linked = (key: CatalogueProductKey): string[] =>
    (options.linkedProductIds?.[key] ?? []).map((id) => id.trim()).filter((id) => id !== '');
  const plans: PlanSpec[] = PLANS.map((plan) => ({
    ...plan,
    paymentProviderId: paymentProviderIdAt(ids, PAYMENT_PROVIDER_ID_INDEX[`${plan.line}:${plan.name}`]),
    linkedProductIds: linked(`${plan.line}:${plan.name}`),
  }));
  const addOns: AddOnSpec[] = ADD_ONS.map((name) => ({
    name,
    paymentProviderId: paymentProviderIdAt(ids, PAYMENT_PROVIDER_ID_INDEX[name]),
    linkedProductIds: linked(name),
  }));
  return { plans, addOns };
}

/** Every key PLAN_LINKED_PRODUCT_IDS may name: each plan as `line:plan`, and each add-on. */
export const CATALOGUE_PRODUCT_KEYS: readonly CatalogueProductKey[] = [
  ...PLANS.map((plan): CatalogueProductKey => `${plan.line}:${plan.name}`),
  ...ADD_ONS,
];
