// evolve: pure and total. It trusts recorded events (decide validated them) but never throws:
// an event it does not know, or one that makes no sense in the current state, leaves the state as it is.
import { withItem, withTerms } from '../billing/subscription.js';
import { LIMITED_RESOURCES } from '../limits/limited-resources.js';
import { ADD_ONS, isChorusPlan, isClassicPlan } from '../plans/plan-lines.js';
import type { OrganizationEvent } from './events.js';
import { initialOrganizationState, type ExistingOrganization, type OrganizationState, type SsoDomainVerification } from './state.js';

const created = (id: string, name: string): ExistingOrganization => ({
  exists: true,
  id,
  name,
  plans: { classic: null, chorus: null },
  serviceLevel: 'standard',
  addOns: { additionalContentSection: 0, additionalUser: 0, qualityAssurance: 0, webAnalytics: 0, feedback: 0 },
  chorus: { enabled: false, parallelUse: null },
  limits: {
    configured: { users: null, contentSections: null, qualityAssuranceDomains: null, webAnalyticsDomains: null },
    override: false,
  },
  members: [],
  sites: [],
  qualityAssuranceDomains: [],
  webAnalyticsDomains: [],
  sso: null,
});

const withDomain = (domains: readonly string[], domain: string): readonly string[] =>
  domains.includes(domain) ? domains : [...domains, domain];

/** The SSO domain's verification changed; a domain not listed (or SSO off) is left as it is. */
function withVerification(
  state: ExistingOrganization,
  domain: string,
  change: (current: SsoDomainVerification) => SsoDomainVerification,
): ExistingOrganization {
  if (state.sso === null || !state.sso.domains.includes(domain)) return state;
  const current = state.sso.verification[domain] ?? { status: 'pending', token: '', since: '', missingSince: null };
  return { ...state, sso: { ...state.sso, verification: { ...state.sso.verification, [domain]: change(current) } } };
}

export function evolve(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  if (!state.exists) {
    return event.type === 'OrganizationCreated' ? created(event.data.id, event.data.name) : state;
  }
  switch (event.type) {
    case 'PlanAssigned': {
      const { line, plan, serviceLevel, subscriptionId } = event.data;
      const serviceLevelAfter = serviceLevel ?? state.serviceLevel;
      const valid = (line === 'classic' && isClassicPlan(plan)) || (line === 'chorus' && isChorusPlan(plan));
      if (!valid) return state;
      const subscription = withItem(state.subscription, subscriptionId, { line, plan });
      return { ...state, plans: { ...state.plans, [line]: plan }, serviceLevel: serviceLevelAfter, ...(subscription && { subscription }) };
    }
    case 'PlanEnded': {
      const { line, subscriptionId } = event.data;
      if (line !== 'classic' && line !== 'chorus') return state;
      const subscription = withItem(state.subscription, subscriptionId, { line, plan: null });
      return { ...state, plans: { ...state.plans, [line]: null }, ...(subscription && { subscription }) };
    }
    case 'AddOnPurchased':
    case 'AddOnCancelled': {
      const { addOn, quantity, subscriptionId } = event.data;
      if (!ADD_ONS.includes(addOn)) return state;
      const delta = event.type === 'AddOnPurchased' ? quantity : -quantity;
      const subscription = withItem(state.subscription, subscriptionId, { addOn, delta });
      return { ...state, addOns: { ...state.addOns, [addOn]: Math.max(0, state.addOns[addOn] + delta) }, ...(subscription && { subscription }) };
    }
    case 'SubscriptionChanged':
      return { ...state, subscription: withTerms(state.subscription, event.data) };
    case 'SubscriptionTrialEnding':
      return state.subscription?.subscriptionId === event.data.subscriptionId
        ? { ...state, subscription: { ...state.subscription, trialEndingNoted: event.data.trialEndsAt } }
        : state;
    case 'TwoStepSignInPolicySet':
      return { ...state, twoStepSignInRequired: event.data.required };
    case 'ChorusEnabled':
      return { ...state, chorus: { enabled: true, parallelUse: event.data.parallelUse ?? null } };
    case 'ChorusDisabled':
      return { ...state, chorus: { ...state.chorus, enabled: false } };
    case 'LimitsConfigured': {
      const configured = { ...state.limits.configured };
      for (const resource of LIMITED_RESOURCES) {
        const value = event.data[resource];
        if (value !== undefined) configured[resource] = value;
      }
      return { ...state, limits: { configured, override: event.data.override ?? state.limits.override } };
    }
    case 'MemberAdded': {
      const { userId, email, role, chorusUser } = event.data;
      const others = state.members.filter((member) => member.userId !== userId);
      return { ...state, members: [...others, { userId, email, role, chorusUser }] };
    }
    case 'MemberRemoved':
      return { ...state, members: state.members.filter((member) => member.userId !== event.data.userId) };
    case 'InvitationResent':
      return state;
    case 'MemberRoleChanged': {
      const { userId, role } = event.data;
      if (!state.members.some((member) => member.userId === userId)) return state;
      return { ...state, members: state.members.map((member) => (member.userId === userId ? { ...member, role } : member)) };
    }
    case 'SiteAdded': {
      const { siteId, name, hostname } = event.data;
      const others = state.sites.filter((site) => site.siteId !== siteId);
      return { ...state, sites: [...others, { siteId, name, hostname }] };
    }
    case 'SiteRemoved':
      return { ...state, sites: state.sites.filter((site) => site.siteId !== event.data.siteId) };
    case 'QualityAssuranceDomainAdded':
      return { ...state, qualityAssuranceDomains: withDomain(state.qualityAssuranceDomains, event.data.domain) };
    case 'QualityAssuranceDomainRemoved':
      return { ...state, qualityAssuranceDomains: state.qualityAssuranceDomains.filter((d) => d !== event.data.domain) };
    case 'WebAnalyticsDomainAdded':
      return { ...state, webAnalyticsDomains: withDomain(state.webAnalyticsDomains, event.data.domain) };
    case 'WebAnalyticsDomainRemoved':
      return { ...state, webAnalyticsDomains: state.webAnalyticsDomains.filter((d) => d !== event.data.domain) };
    case 'SsoConfigured': {
      const { issuer, clientId, clientSecret, domains, enforce } = event.data;
      const listed = [...new Set(domains)];
      // A domain dropped from the list loses its proof: listed again, it is proved again.
      const kept = Object.entries(state.sso?.verification ?? {}).filter(([domain]) => listed.includes(domain));
      return { ...state, sso: { issuer, clientId, clientSecret, domains: listed, enforce, verification: Object.fromEntries(kept) } };
    }
    case 'SsoDisabled':
      return { ...state, sso: null };
    case 'SsoDomainPending':
      return withVerification(state, event.data.domain, () => ({ status: 'pending', token: event.data.token, since: event.data.at, missingSince: null }));
    case 'SsoDomainVerified':
      return withVerification(state, event.data.domain, (current) => ({
        ...current,
        status: 'verified',
        since: current.status === 'verified' ? current.since : event.data.at,
        missingSince: null,
      }));
    case 'SsoDomainRecordMissing':
      return withVerification(state, event.data.domain, (current) => ({ ...current, missingSince: event.data.at }));
    case 'SsoDomainUnverified':
      return withVerification(state, event.data.domain, (current) => ({ ...current, status: 'unverified', since: event.data.at, missingSince: null }));
    case 'TrafficThresholdReached': {
      const { period, threshold } = event.data;
      const reached = state.trafficThresholdsReached ?? {};
      return { ...state, trafficThresholdsReached: { ...reached, [period]: [...(reached[period] ?? []), threshold] } };
    }
    default:
      // OrganizationCreated again, or a type this version does not know (an older reader of a newer stream).
      return state;
  }
}

/** The state after `events`, starting from `from` (no organization by default). */
export const foldOrganization = (
  events: readonly OrganizationEvent[],
  from: OrganizationState = initialOrganizationState,
): OrganizationState => events.reduce<OrganizationState>((state, event) => evolve(state, event), from);
