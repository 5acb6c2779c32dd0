// A limit as the Overview and the add forms explain it: "N of M", which of the configured and hard
// limits binds (docs/domain.md, Limits), and what would raise it.
import type { LimitedResource, Organization } from './contract';
import type { Goal } from './way-forward';
import { ADD_ON_NAMES, RESOURCE_NAMES, formatNumber, planName } from './words';

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
export type LimitsShown = Pick<Organization, 'limits' | 'usage' | 'chorusFeatures' | 'governingPlan'>;

/**
 * No plan is in effect (none assigned, it ended, or Chorus is off): nothing can be added, whatever the missing plan's
 * "unlimited" says.
 */
export const planless = (organization: Pick<Organization, 'governingPlan'>): boolean =>
  organization.governingPlan === null;

export function included(organization: LimitsShown, resource: LimitedResource): boolean {
  if (resource === 'qualityAssuranceDomains') return organization.chorusFeatures.qualityAssurance;
  if (resource === 'webAnalyticsDomains') return organization.chorusFeatures.webAnalytics;
  return true;
}

/**
 * "3 of 5", "3 of unlimited"; "3 in use" without a plan; "Not included" for domains whose feature is off (none can be
 * added).
 */
export function usageText(organization: LimitsShown, resource: LimitedResource): string {
  const limit = organization.limits.effective[resource];
  if (!included(organization, resource) && organization.usage[resource] === 0) return 'Not included';
  if (planless(organization)) return `${formatNumber(organization.usage[resource])} in use`;
  return `${formatNumber(organization.usage[resource])} of ${limit === null ? 'unlimited' : formatNumber(limit)}`;
}

/**
 * What is really allowed, in one line (History's state panel): usageText, and why nothing can be added without a plan.
 */
export function allowedText(organization: LimitsShown, resource: LimitedResource): string {
  const usage = usageText(organization, resource);
  if (!planless(organization) || usage === 'Not included') return usage;
  // docs/domain.md: an organization with no members always takes its first owner, plan or no plan.
  if (resource === 'users' && organization.usage.users === 0)
    return `${usage}: only a first owner can be added without a plan`;
  return `${usage}: none can be added without a plan`;
}

/** How many more are in use than the limit allows, after a downgrade: nothing is removed by one. */
export const exceededBy = (organization: LimitsShown, resource: LimitedResource): number =>
  organization.limits.exceededBy?.[resource] ?? 0;

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
  // No plan raises the web analytics cap, nor a limit Chorus set for the organization.
  const planRaises = resource !== 'webAnalyticsDomains' && organization.limits.setByOperator?.[resource] !== true;
  return planRaises ? `${remove}, or choose a larger plan, before adding more.` : `${remove} before adding more.`;
}

/**
 * What is left, as the organization reads it: "2 more can be added", "No limit", "None left", "3 over the limit", or
 * where it comes from.
 */
export function leftText(organization: Organization, resource: LimitedResource): string {
  if (!included(organization, resource))
    return `Comes with the ${resource === 'webAnalyticsDomains' ? 'Web analytics' : 'Quality assurance'} add-on`;
  const limit = organization.limits.effective[resource];
  if (limit === null) return 'No limit';
  if (exceededBy(organization, resource) > 0)
    return `${formatNumber(exceededBy(organization, resource))} over the limit`;
  const left = limit - organization.usage[resource];
  return left <= 0 ? 'None left' : `${formatNumber(left)} more can be added`;
}

/** "Users limit reached: 5 of 5" (docs/console.md, Members). */
export const limitReachedText = (organization: Organization, resource: LimitedResource): string =>
  exceededBy(organization, resource) > 0
    ? `${RESOURCE_NAMES[resource]} over the limit: ${usageText(organization, resource)}`
    : `${RESOURCE_NAMES[resource]} limit reached: ${usageText(organization, resource)}`;

/**
 * What would raise a reached limit for this organization, in one sentence, and the step that leads there (null: none).
 */
export type Raising = { sentence: string; goal: Goal | null };

const ADD_ON_FOR: Partial<Record<LimitedResource, string>> = {
  users: ADD_ON_NAMES.additionalUser,
  contentSections: ADD_ON_NAMES.additionalContentSection,
  qualityAssuranceDomains: ADD_ON_NAMES.qualityAssurance,
};

/** The largest plans: no plan of either line allows more. */
const isLargestPlan = (organization: LimitsShown): boolean => organization.governingPlan?.plan === 'enterprise';

/**
 * Only what would raise it here (docs/console.md, Members): a limit set by an operator is raised by Chorus
 * alone (an add-on or another plan leaves it as it is), a plan's hard limit by a larger plan alone, and
 * any other by an add-on or a larger plan.
 */
export function raising(organization: Organization, resource: LimitedResource): Raising {
  const reached = raisingReached(organization, resource);
  // Over it after a downgrade: what to do first, and the same way to a higher limit.
  return exceededBy(organization, resource) > 0
    ? { sentence: overLimitText(organization, resource), goal: reached.goal }
    : reached;
}

function raisingReached(organization: Organization, resource: LimitedResource): Raising {
  if (resource === 'webAnalyticsDomains')
    return { sentence: 'The web analytics domain limit is fixed at 1,000.', goal: null };
  const name = THINGS[resource][1];
  const addOn = ADD_ON_FOR[resource] ?? '';
  const plan =
    organization.governingPlan === null ? 'your plan' : `the ${planName(organization.governingPlan.plan)} plan`;
  const bound = binding(organization, resource);
  const limit = formatNumber(organization.limits.effective[resource] ?? 0);
  if (organization.limits.setByOperator?.[resource] === true && bound !== 'hard') {
    return {
      sentence: `${organization.name}’s limit of ${limit} ${name} was set by Chorus, so neither an ${addOn} add-on nor another plan would raise it: only Chorus can.`,
      goal: 'support',
    };
  }
  if (bound === 'hard' || bound === 'both') {
    return {
      sentence: `That is the most ${plan} allows, so an ${addOn} add-on would not raise it: a larger plan does.`,
      goal: 'largerPlan',
    };
  }
  const each =
    resource === 'qualityAssuranceDomains'
      ? `Each ${addOn} add-on adds one QA domain`
      : `Each ${addOn} add-on adds one ${THINGS[resource][0]}`;
  return {
    sentence: isLargestPlan(organization) ? `${each}.` : `${each}, and a larger plan allows more.`,
    goal: 'raise',
  };
}

/** What would raise the limit, in one sentence. */
export const whatRaisesIt = (organization: Organization, resource: LimitedResource): string =>
  raising(organization, resource).sentence;
