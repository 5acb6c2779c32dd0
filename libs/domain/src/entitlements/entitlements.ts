// The flag keys are a contract with every service that checks them.
import { CHORUS_FEATURES, type PlanCatalogue } from '../plans/catalogue.js';
import { effectiveChorusFeatures } from '../features/chorus-features.js';
import { governingPlan } from '../limits/governing-plan.js';
import { LIMITED_RESOURCES } from '../limits/limited-resources.js';
import { organizationLimits } from '../limits/organization-limits.js';
import type { ExistingOrganization } from '../organization/state.js';

/** `limit` null is unlimited (`remaining` then null too). */
export type LimitEntitlement = {
  limit: number | null;
  used: number;
  remaining: number | null;
  exceeded: boolean;
  exceededBy: number;
  override: boolean;
};

export type EntitlementValue = boolean | string | LimitEntitlement;

/** TARGETING_MATCH: the plan, add-ons or settings decided it; DEFAULT: nothing did (no plan yet). */
export type EntitlementReason = 'TARGETING_MATCH' | 'DEFAULT';

export type Entitlement = { value: EntitlementValue; reason: EntitlementReason };

export type EntitlementUsage = { users: number; trafficThisPeriod: number };

const limitOf = (limit: number | null, used: number, override: boolean): LimitEntitlement => ({
  limit,
  used,
  remaining: limit === null ? null : Math.max(limit - used, 0),
  exceeded: limit !== null && used > limit,
  exceededBy: limit === null ? 0 : Math.max(used - limit, 0),
  override,
});

/** In a stable order: the bulk answer's ETag hashes it. */
export function organizationEntitlements(
  state: ExistingOrganization,
  catalogue: PlanCatalogue,
  used: EntitlementUsage,
): Map<string, Entitlement> {
  const plan = governingPlan(state, catalogue);
  const reason: EntitlementReason = plan === undefined ? 'DEFAULT' : 'TARGETING_MATCH';
  const flags = new Map<string, Entitlement>();
  const flag = (key: string, value: EntitlementValue) => flags.set(key, { value, reason });
  flag('plan', plan === undefined ? 'none' : `${plan.line}:${plan.name}`);
  flag('chorus', state.chorus.enabled);
  const chorusFeatures = effectiveChorusFeatures(state, catalogue);
  for (const feature of CHORUS_FEATURES) flag(`chorus.${feature}`, chorusFeatures[feature]);
  flag('multiSite', plan?.organizationDefaults.features.multiSite ?? false);
  const { effective, override } = organizationLimits(state, catalogue);
  const counts = {
    users: used.users,
    contentSections: state.sites.length,
    qualityAssuranceDomains: state.qualityAssuranceDomains.length,
    webAnalyticsDomains: state.webAnalyticsDomains.length,
  };
  for (const resource of LIMITED_RESOURCES)
    flag(`limits.${resource}`, limitOf(effective[resource], counts[resource], override));
  flag('limits.trafficPerMonth', limitOf(plan?.limits.trafficPerMonth ?? null, used.trafficThisPeriod, override));
  return flags;
}

/** Every key a flag of any organization may have: a key not listed is FLAG_NOT_FOUND. */
export const ENTITLEMENT_KEYS: readonly string[] = [
  'plan',
  'chorus',
  ...CHORUS_FEATURES.map((feature) => `chorus.${feature}`),
  'multiSite',
  ...LIMITED_RESOURCES.map((resource) => `limits.${resource}`),
  'limits.trafficPerMonth',
];
