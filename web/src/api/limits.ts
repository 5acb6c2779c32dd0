// A limit as the Overview and the add forms explain it: "N of M", which of the configured and hard
// limits binds (docs/domain.md, Limits), and what would raise it.
import type { LimitedResource, Organization } from './contract';
import { RESOURCE_NAMES, formatNumber, planName } from './words';

/** Which figure sets the effective limit; `configured` alone when the plan has no hard limit. */
export type Binding = 'unlimited' | 'configured' | 'below-hard' | 'hard' | 'both' | 'override';

export function binding(organization: Organization, resource: LimitedResource): Binding {
  const { configured, hard, effective, override } = organization.limits;
  if (effective[resource] === null) return 'unlimited';
  if (override && hard[resource] !== null) return 'override';
  const configuredLimit = configured[resource];
  const hardLimit = hard[resource];
  if (hardLimit === null) return 'configured';
  if (configuredLimit === null) return 'hard';
  if (configuredLimit === hardLimit) return 'both';
  return configuredLimit < hardLimit ? 'below-hard' : 'hard';
}

/** Whether the organization has this at all: QA and web analytics domains come with their feature. */
/** What a limit's words read: the organization now, or as it was at a point of its history. */
export type LimitsShown = Pick<Organization, 'limits' | 'usage' | 'chorusFeatures'>;

export function included(organization: LimitsShown, resource: LimitedResource): boolean {
  if (resource === 'qualityAssuranceDomains') return organization.chorusFeatures.qualityAssurance;
  if (resource === 'webAnalyticsDomains') return organization.chorusFeatures.webAnalytics;
  return true;
}

/** "3 of 5", "3 of unlimited"; "Not included" for domains whose feature is off (none can be added). */
export function usageText(organization: LimitsShown, resource: LimitedResource): string {
  const limit = organization.limits.effective[resource];
  if (!included(organization, resource) && organization.usage[resource] === 0) return 'Not included';
  return `${formatNumber(organization.usage[resource])} of ${limit === null ? 'unlimited' : formatNumber(limit)}`;
}

/** How many more are in use than the limit allows, after a downgrade: nothing is removed by one. */
export const exceededBy = (organization: LimitsShown, resource: LimitedResource): number => organization.limits.exceededBy?.[resource] ?? 0;

const THINGS: Record<LimitedResource, [one: string, many: string]> = {
  users: ['member', 'members'],
  contentSections: ['site', 'sites'],
  qualityAssuranceDomains: ['QA domain', 'QA domains'],
  webAnalyticsDomains: ['web analytics domain', 'web analytics domains'],
};

/** "Remove 3 members, or choose a larger plan, before adding more." */
export function overLimitText(organization: LimitsShown, resource: LimitedResource): string {
  const over = exceededBy(organization, resource);
  const remove = `Remove ${formatNumber(over)} ${THINGS[resource][over === 1 ? 0 : 1]}`;
  return resource === 'webAnalyticsDomains' ? `${remove} before adding more.` : `${remove}, or choose a larger plan, before adding more.`;
}

/** What is left, as the organization reads it: "2 more can be added", "No limit", "None left", "3 over the limit", or where it comes from. */
export function leftText(organization: Organization, resource: LimitedResource): string {
  if (!included(organization, resource)) return `Comes with the ${resource === 'webAnalyticsDomains' ? 'Web analytics' : 'Quality assurance'} add-on`;
  const limit = organization.limits.effective[resource];
  if (limit === null) return 'No limit';
  if (exceededBy(organization, resource) > 0) return `${formatNumber(exceededBy(organization, resource))} over the limit`;
  const left = limit - organization.usage[resource];
  return left <= 0 ? 'None left' : `${formatNumber(left)} more can be added`;
}

/** "Users limit reached: 5 of 5" (docs/console.md, Members). */
export const limitReachedText = (organization: Organization, resource: LimitedResource): string =>
  exceededBy(organization, resource) > 0
    ? `${RESOURCE_NAMES[resource]} over the limit: ${usageText(organization, resource)}`
    : `${RESOURCE_NAMES[resource]} limit reached: ${usageText(organization, resource)}`;

/** What would raise the limit, in one sentence. */
export function whatRaisesIt(organization: Organization, resource: LimitedResource): string {
  if (exceededBy(organization, resource) > 0) return overLimitText(organization, resource);
  if (resource === 'webAnalyticsDomains') return 'The web analytics domain limit is fixed at 1,000.';
  const plan = organization.governingPlan === null ? 'your plan' : `the ${planName(organization.governingPlan.plan)} plan`;
  if (binding(organization, resource) === 'hard') {
    return `That is the most ${plan} allows: another plan raises it.`;
  }
  switch (resource) {
    case 'users':
      return 'An Additional user add-on, or another plan, raises it.';
    case 'contentSections':
      return 'An extra site (the Additional content section add-on), or another plan, raises it.';
    case 'qualityAssuranceDomains':
      return 'Each Quality assurance add-on adds one QA domain.';
  }
}
