// decide and the view's canAdd ask the same reason, so both always agree.
import { DomainError, LimitExceeded, type LimitedResource } from '../errors.js';
import { effectiveChorusFeatures } from '../features/chorus-features.js';
import type { ChorusFeature, ChorusFeatures, PlanCatalogue, PlanSpec } from '../plans/catalogue.js';
import type { MemberRole } from '../organization/member-roles.js';
import type { ExistingOrganization } from '../organization/state.js';
import type { PerResource } from '../organization/view.js';
import { governingPlan } from './governing-plan.js';
import { isWithin } from './limit-arithmetic.js';
import { organizationLimits, usage, type OrganizationLimits } from './organization-limits.js';

const REQUIRED_FEATURE: Partial<Record<LimitedResource, ChorusFeature>> = {
  qualityAssuranceDomains: 'qualityAssurance',
  webAnalyticsDomains: 'webAnalytics',
};

export type ReasonNotToAdd =
  | { code: 'NO_PLAN' }
  | { code: 'FEATURE_DISABLED'; feature: ChorusFeature }
  | { code: 'LIMIT_EXCEEDED'; limit: number; count: number };

export type AddingContext = {
  plan: PlanSpec | undefined;
  features: () => ChorusFeatures;
  limits: () => OrganizationLimits;
  usage: () => PerResource<number>;
};

/** `users`: the member count, for a state that holds only some of its members (organizationView). */
export function addingContext(
  state: ExistingOrganization,
  catalogue: PlanCatalogue,
  users = state.members.size,
): AddingContext {
  let features: ChorusFeatures | undefined;
  let limits: OrganizationLimits | undefined;
  let counts: PerResource<number> | undefined;
  return {
    plan: governingPlan(state, catalogue),
    features: () => (features ??= effectiveChorusFeatures(state, catalogue)),
    limits: () => (limits ??= organizationLimits(state, catalogue)),
    usage: () => (counts ??= usage(state, users)),
  };
}

export function reasonNotToAdd(
  state: ExistingOrganization,
  resource: LimitedResource,
  context: AddingContext,
  role?: MemberRole,
): ReasonNotToAdd | null {
  // docs/domain.md: an organization with no members may always take its first owner, so someone can choose a plan.
  if (resource === 'users' && role === 'owner' && context.usage().users === 0) return null;
  if (!context.plan) return { code: 'NO_PLAN' };
  const feature = REQUIRED_FEATURE[resource];
  if (feature && !context.features()[feature]) return { code: 'FEATURE_DISABLED', feature };
  const limit = context.limits().effective[resource];
  const count = context.usage()[resource];
  return isWithin(limit, count + 1) ? null : { code: 'LIMIT_EXCEEDED', limit: limit as number, count };
}

export function refusalToAdd(
  state: ExistingOrganization,
  resource: LimitedResource,
  catalogue: PlanCatalogue,
  role?: MemberRole,
): DomainError | null {
  const reason = reasonNotToAdd(state, resource, addingContext(state, catalogue), role);
  switch (reason?.code) {
    case undefined:
      return null;
    case 'NO_PLAN':
      return new DomainError('NO_PLAN', 'The organization has no plan yet: choose a plan first.', { resource });
    case 'FEATURE_DISABLED':
      return new DomainError(
        'FEATURE_DISABLED',
        `The ${reason.feature} feature is not enabled for this organization.`,
        { feature: reason.feature },
      );
    case 'LIMIT_EXCEEDED':
      return new LimitExceeded(resource, reason.limit, reason.count);
  }
}
