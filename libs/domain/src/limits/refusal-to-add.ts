// Whether one more of a resource may be added, and if not, the refusal. decide throws it;
// the view's canAdd is "no refusal", so both always agree.
import { DomainError, LimitExceeded, type LimitedResource } from '../errors.js';
import { effectiveChorusFeatures } from '../features/chorus-features.js';
import type { ChorusFeature, PlanCatalogue } from '../plans/catalogue.js';
import type { MemberRole } from '../organization/events.js';
import type { ExistingOrganization } from '../organization/state.js';
import { governingPlan } from './governing-plan.js';
import { isWithin } from './limit-arithmetic.js';
import { organizationLimits, usage } from './organization-limits.js';

const REQUIRED_FEATURE: Partial<Record<LimitedResource, ChorusFeature>> = {
  qualityAssuranceDomains: 'qualityAssurance',
  webAnalyticsDomains: 'webAnalytics',
};

/** role: the role of the member being added (users only); it matters only for the first owner. */
export function refusalToAdd(
  state: ExistingOrganization,
  resource: LimitedResource,
  catalogue: PlanCatalogue,
  role?: MemberRole,
): DomainError | null {
  // DOMAIN.md: an organization with no members may always take its first owner, so someone can choose a plan.
  if (resource === 'users' && role === 'owner' && state.members.length === 0) return null;
  if (!governingPlan(state, catalogue)) {
    return new DomainError('NO_PLAN', 'The organization has no plan yet: choose a plan first.', { resource });
  }
  const feature = REQUIRED_FEATURE[resource];
  if (feature && !effectiveChorusFeatures(state, catalogue)[feature]) {
    return new DomainError('FEATURE_DISABLED', `The ${feature} feature is not enabled for this organization.`, { feature });
  }
  const limit = organizationLimits(state, catalogue).effective[resource];
  const count = usage(state)[resource];
  return isWithin(limit, count + 1) ? null : new LimitExceeded(resource, limit as number, count);
}
