// CONTRACT (types fixed; the data is in plan-catalogue.ts, lookups in find-plan.ts and resolve-product.ts).
export type Line = 'classic' | 'chorus';
export type ClassicPlan = 'essential' | 'professional' | 'enterprise';
export type ChorusPlan = 'solo' | 'teams' | 'enterprise' | 'light';
export type PlanName = ClassicPlan | ChorusPlan;
export type ServiceLevel = 'standard' | 'assisted' | 'turnkey';
export type AddOn = 'additionalContentSection' | 'additionalUser' | 'qualityAssurance' | 'webAnalytics' | 'feedback';

export const CHORUS_FEATURES = [
  'multiSite',
  'multiUser',
  'emailNotifications',
  'feedback',
  'feedbackAssigning',
  'feedbackLabeling',
  'feedbackNotes',
  'buttonToolGeneral',
  'buttonToolSentiment',
  'buttonToolAfterReactions',
  'buttonToolHistory',
  'significantChangesReport',
  'matomoIntegration',
  'disableAISummary',
  'qualityAssurance',
  'webAnalytics',
  'chatSupport',
] as const;
export type ChorusFeature = (typeof CHORUS_FEATURES)[number];
export type ChorusFeatures = Record<ChorusFeature, boolean>;

export type SiteFeatures = {
  customCTAs: boolean;
  integrations: boolean;
  live: boolean;
  logo: boolean;
  reports: boolean;
  timeFilter: boolean;
  timeFilterMigrated: boolean;
  userInputs: boolean;
  floatingShareButtons: boolean;
  anonymizeFeedback: boolean;
};

/** null = unlimited ('not shown' in the seed); 0 also means unlimited (seed section 5). */
export type Limit = number | null;
export type ResourceLimits = {
  users: Limit;
  contentSections: Limit;
  qualityAssuranceDomains: Limit;
  webAnalyticsDomains: Limit;
};

export type PlanSpec = {
  line: Line;
  name: PlanName;
  siteDefaults: { features: SiteFeatures; report: { weekly: boolean; monthly: boolean }; live: boolean };
  organizationDefaults: {
    features: { multiSite: boolean };
    /** Chorus line only. */
    chorusDetails?: { plan: ChorusPlan };
    chorusFeatures?: ChorusFeatures;
  };
  customSetDefaults: { features: { logo: boolean; integrations: boolean } };
  limits: ResourceLimits & { trafficPerMonth: number | null };
  hardLimits: ResourceLimits;
  /** From PLAN_PAYMENT_PROVIDER_IDS; null when that plan cannot be bought through billing. */
  paymentProviderId: string | null;
  linkedProductIds: readonly string[];
};

export type AddOnSpec = {
  name: AddOn;
  paymentProviderId: string | null;
  linkedProductIds: readonly string[];
};

export type PlanCatalogue = {
  plans: readonly PlanSpec[];
  addOns: readonly AddOnSpec[];
};

/** A plan (`classic:essential`, `chorus:teams`, ...) or an add-on (`feedback`, ...) of the catalogue. */
export type CatalogueProductKey = `${Line}:${PlanName}` | AddOn;

export type PlanCatalogueOptions = {
  /** PLAN_PAYMENT_PROVIDER_IDS split on ','; index 0 essential, 1 professional, 3 additionalContentSection. */
  paymentProviderIds?: readonly string[];
  /** Further sellable products per plan or add-on (PLAN_LINKED_PRODUCT_IDS). */
  linkedProductIds?: Partial<Record<CatalogueProductKey, readonly string[]>>;
};
