// Configured, hard and effective limits of an organization, each resource on its own.
import type { LimitedResource } from '../errors.js';
import { ADD_ON_EFFECTS } from '../plans/add-on-effects.js';
import type { Limit, PlanCatalogue } from '../plans/catalogue.js';
import { ADD_ONS } from '../plans/plan-lines.js';
import type { ExistingOrganization } from '../organization/state.js';
import type { PerResource } from '../organization/view.js';
import { governingPlan } from './governing-plan.js';
import { configuredLimit, effectiveLimit, normalizeLimit } from './limit-arithmetic.js';
import { LIMITED_RESOURCES, WEB_ANALYTICS_DOMAIN_LIMIT } from './limited-resources.js';

/** null = unlimited everywhere (0 is written as null). */
export type OrganizationLimits = {
  configured: PerResource<Limit>;
  hard: PerResource<Limit>;
  effective: PerResource<Limit>;
  override: boolean;
  /** Where the configured limit is an operator's setting (LimitsConfigured): plans and add-ons leave it as it is. */
  setByOperator: PerResource<boolean>;
};

/**
 * What an organization's limits are computed from, and nothing else: the History's usage over time keeps these parts
 * of the state after each event that may move the limits, not the state.
 */
export type LimitInputs = Pick<ExistingOrganization, 'plans' | 'chorus' | 'limits' | 'addOns'>;

/** The parts of the state its limits are computed from. */
export const limitInputsOf = ({ plans, chorus, limits, addOns }: LimitInputs): LimitInputs => ({
  plans,
  chorus,
  limits,
  addOns,
});

/** Active add-on units times their increment for one resource. */
export const addOnIncrement = (state: LimitInputs, resource: LimitedResource): number =>
  ADD_ONS.reduce((sum, addOn) => sum + state.addOns[addOn] * (ADD_ON_EFFECTS[addOn].increments[resource] ?? 0), 0);

const perResource = <T>(valueOf: (resource: LimitedResource) => T): PerResource<T> =>
  Object.fromEntries(LIMITED_RESOURCES.map((resource) => [resource, valueOf(resource)])) as PerResource<T>;

export function organizationLimits(state: LimitInputs, catalogue: PlanCatalogue): OrganizationLimits {
  const plan = governingPlan(state, catalogue);
  const override = state.limits.override;
  const configured = perResource((resource): Limit => {
    const setting = state.limits.configured[resource];
    // Seed section 9: "fixed at 1000". It replaces the table's figures and the add-on's +1; a configured
    // value may lower it, never raise it or make it unlimited.
    if (resource === 'webAnalyticsDomains') {
      const own = normalizeLimit(setting ?? null);
      return own === null ? WEB_ANALYTICS_DOMAIN_LIMIT : Math.min(own, WEB_ANALYTICS_DOMAIN_LIMIT);
    }
    return normalizeLimit(
      configuredLimit(setting, plan ? plan.limits[resource] : null, addOnIncrement(state, resource)),
    );
  });
  const hard = perResource((resource) => normalizeLimit(plan ? plan.hardLimits[resource] : null));
  const effective = perResource((resource) => effectiveLimit(configured[resource], hard[resource], override));
  const setByOperator = perResource((resource) => (state.limits.configured[resource] ?? null) !== null);
  return { configured, hard, effective, override, setByOperator };
}

/** `users`: the member count, for a state that holds only some of its members (the read model's owners). */
export const usage = (state: ExistingOrganization, users = state.members.size): PerResource<number> => ({
  users,
  contentSections: state.sites.length,
  qualityAssuranceDomains: state.qualityAssuranceDomains.length,
  webAnalyticsDomains: state.webAnalyticsDomains.length,
});
