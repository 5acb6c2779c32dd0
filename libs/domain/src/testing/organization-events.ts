// Event builders for tests: short names for the histories the specs start from.
import type { AddOn, ChorusPlan, ClassicPlan, ServiceLevel } from '../plans/catalogue.js';
import type {
  AddOnCancelled,
  AddOnPurchased,
  ChorusDisabled,
  ChorusEnabled,
  LimitsConfigured,
  MemberAdded,
  MemberRole,
  OrganizationCreated,
  OrganizationEvent,
  PlanAssigned,
  QualityAssuranceDomainAdded,
  SiteAdded,
  WebAnalyticsDomainAdded,
} from '../organization/events.js';

export const organizationCreated = (id = 'org-1', name = 'Acme'): OrganizationCreated => ({
  type: 'OrganizationCreated',
  data: { id, name },
});

export const classicPlanAssigned = (plan: ClassicPlan, serviceLevel?: ServiceLevel): PlanAssigned => ({
  type: 'PlanAssigned',
  data: serviceLevel ? { line: 'classic', plan, serviceLevel } : { line: 'classic', plan },
});

export const chorusPlanAssigned = (plan: ChorusPlan, serviceLevel?: ServiceLevel): PlanAssigned => ({
  type: 'PlanAssigned',
  data: serviceLevel ? { line: 'chorus', plan, serviceLevel } : { line: 'chorus', plan },
});

export const chorusEnabled = (parallelUse?: boolean): ChorusEnabled => ({
  type: 'ChorusEnabled',
  data: parallelUse === undefined ? {} : { parallelUse },
});

export const chorusDisabled = (): ChorusDisabled => ({ type: 'ChorusDisabled', data: {} });

export const addOnPurchased = (addOn: AddOn, quantity = 1): AddOnPurchased => ({
  type: 'AddOnPurchased',
  data: { addOn, quantity },
});
export const addOnCancelled = (addOn: AddOn, quantity = 1): AddOnCancelled => ({
  type: 'AddOnCancelled',
  data: { addOn, quantity },
});

export const limitsConfigured = (data: LimitsConfigured['data']): LimitsConfigured => ({
  type: 'LimitsConfigured',
  data,
});

export const memberAdded = (n: number, role: MemberRole = 'member', chorusUser = false): MemberAdded => ({
  type: 'MemberAdded',
  data: { userId: `user-${n}`, email: `user${n}@example.com`, role, chorusUser },
});

/** `count` members: the first an owner, the rest members. */
export const membersAdded = (count: number): MemberAdded[] =>
  Array.from({ length: count }, (_, i) => memberAdded(i + 1, i === 0 ? 'owner' : 'member'));

export const siteAdded = (n: number): SiteAdded => ({
  type: 'SiteAdded',
  data: { siteId: `site-${n}`, name: `Site ${n}`, hostname: `site${n}.example.com` },
});

export const sitesAdded = (count: number): SiteAdded[] => Array.from({ length: count }, (_, i) => siteAdded(i + 1));

export const qualityAssuranceDomainsAdded = (count: number): QualityAssuranceDomainAdded[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'QualityAssuranceDomainAdded',
    data: { domain: `qa${i + 1}.example.com` },
  }));

export const webAnalyticsDomainsAdded = (count: number): WebAnalyticsDomainAdded[] =>
  Array.from({ length: count }, (_, i) => ({
    type: 'WebAnalyticsDomainAdded',
    data: { domain: `wa${i + 1}.example.com` },
  }));

/** An organization on a Classic plan. */
export const onClassicPlan = (plan: ClassicPlan): OrganizationEvent[] => [
  organizationCreated(),
  classicPlanAssigned(plan),
];

/** An organization on a Chorus plan, with Chorus enabled so that plan governs. */
export const onChorusPlan = (plan: ChorusPlan): OrganizationEvent[] => [
  organizationCreated(),
  chorusPlanAssigned(plan),
  chorusEnabled(),
];
