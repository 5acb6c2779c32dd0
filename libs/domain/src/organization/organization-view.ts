// The read-side shape of an organization (view.ts), computed from its state and the catalogue.
import { hasSsoPlan, ssoVerificationRecordName } from '../sso/sso-rules.js';
import { toUnicodeHostname } from '../hostnames/parse-hostname.js';
import { LIMITED_RESOURCES } from '../limits/limited-resources.js';
import { addingContext, reasonNotToAdd } from '../limits/refusal-to-add.js';
import type { OrganizationSubscription } from '../billing/subscription.js';
import type { AddOn, Limit, PlanCatalogue, PlanSpec, SiteFeatures } from '../plans/catalogue.js';
import { ADD_ONS } from '../plans/plan-lines.js';
import type { MemberRole } from './member-roles.js';
import type { ExistingOrganization, SsoDomainVerification, SsoSettings } from './state.js';
import type { OrganizationView, PerResource, SsoDomainState, SsoSettingsView, SubscriptionView } from './view.js';

const NO_SITE_FEATURES: SiteFeatures = {
  customCTAs: false,
  integrations: false,
  live: false,
  logo: false,
  reports: false,
  timeFilter: false,
  timeFilterMigrated: false,
  userInputs: false,
  floatingShareButtons: false,
  anonymizeFeedback: false,
};

/** Sites take the governing plan's siteDefaults; with no governing plan every site feature is off. */
const siteDefaults = (
  plan: PlanSpec | undefined,
): Pick<OrganizationView['sites'][number], 'features' | 'report' | 'live'> => ({
  features: { ...(plan?.siteDefaults.features ?? NO_SITE_FEATURES) },
  report: { ...(plan?.siteDefaults.report ?? { weekly: false, monthly: false }) },
  live: plan?.siteDefaults.live ?? false,
});

/**
 * Throws nothing. The state must be an existing organization (narrow with `state.exists`). `users` is the member
 * count when the state holds only some members (the read model's owners, for an answer that lists no one else).
 */
export function organizationView(
  state: ExistingOrganization,
  catalogue: PlanCatalogue,
  users = state.members.size,
): OrganizationView {
  const adding = addingContext(state, catalogue, users);
  const plan = adding.plan;
  const limits = adding.limits();
  // canAdd asks "would one more be accepted?"; for users with no members that is the first owner.
  const canAdd = Object.fromEntries(
    LIMITED_RESOURCES.map((resource) => [resource, reasonNotToAdd(state, resource, adding, 'owner') === null]),
  ) as PerResource<boolean>;
  const addOns: Partial<Record<AddOn, number>> = {};
  for (const addOn of ADD_ONS) if (state.addOns[addOn] > 0) addOns[addOn] = state.addOns[addOn];
  const defaults = siteDefaults(plan);
  return {
    id: state.id,
    name: state.name,
    plan: state.plans.classic,
    chorus: state.chorus.enabled,
    chorusDetails: { plan: state.plans.chorus, parallelUse: state.chorus.parallelUse },
    chorusFeatures: adding.features(),
    features: { multiSite: plan?.organizationDefaults.features.multiSite ?? false },
    serviceLevel: state.serviceLevel,
    addOns,
    governingPlan: plan ? { line: plan.line, plan: plan.name } : null,
    limits: { ...limits, exceededBy: exceededBy(limits.effective, adding.usage()) },
    usage: adding.usage(),
    canAdd,
    trafficPerMonth: plan?.limits.trafficPerMonth ?? null,
    members: state.members.toArray().map((member) => ({ ...member })),
    sites: state.sites.map((site) => ({
      siteId: site.siteId,
      name: site.name,
      hostname: toUnicodeHostname(site.hostname),
      features: { ...defaults.features },
      report: { ...defaults.report },
      live: defaults.live,
    })),
    qualityAssurance: { domains: state.qualityAssuranceDomains.map(toUnicodeHostname) },
    webAnalytics: { domains: state.webAnalyticsDomains.map(toUnicodeHostname) },
    subscription: subscriptionView(state.subscription),
    twoStepSignIn: { required: state.twoStepSignInRequired ?? false },
    sso: {
      available: hasSsoPlan(state, catalogue),
      // Never the client secret, not even sealed: only that one is set.
      settings: state.sso === null ? null : ssoSettingsView(state.sso, state.domainJoins),
    },
  };
}

/** Over a limit only ever by a change of plan or limits: nothing in use is removed by one. */
export const exceededBy = (effective: PerResource<Limit>, used: PerResource<number>): PerResource<number> =>
  Object.fromEntries(
    LIMITED_RESOURCES.map((resource) => [resource, Math.max(0, used[resource] - (effective[resource] ?? Infinity))]),
  ) as PerResource<number>;

function subscriptionView(subscription: OrganizationSubscription | undefined): SubscriptionView | null {
  if (subscription === undefined) return null;
  const { provider, status, trialEndsAt, endsOn, currentPeriod, endedAt } = subscription;
  return {
    provider,
    status,
    trialEndsAt,
    endsOn,
    currentPeriod: currentPeriod === null ? null : { ...currentPeriod },
    endedAt,
  };
}

/**
 * Never the client secret, not even sealed: only that one is set. Certificates by digest and expiry, not their bytes.
 */
function ssoSettingsView(sso: SsoSettings, joins: ExistingOrganization['domainJoins']): SsoSettingsView {
  const common = {
    domains: sso.domains.map(toUnicodeHostname),
    enforce: sso.enforce,
    trustProviderMfa: sso.trustProviderMfa,
    domainStates: sso.domains.map((domain) =>
      ssoDomainState(domain, sso.verification[domain], joins?.[domain] ?? null),
    ),
  };
  if (sso.protocol === 'oidc') return { protocol: 'oidc', issuer: sso.issuer, clientId: sso.clientId, ...common };
  const certificates = sso.certificates.map(({ sha256, notAfter }) => ({ sha256, notAfter }));
  const { idpEntityId, ssoUrl, metadataUrl, allowIdpInitiated } = sso;
  return { protocol: 'saml', idpEntityId, ssoUrl, metadataUrl, certificates, allowIdpInitiated, ...common };
}

function ssoDomainState(
  domain: string,
  verification: SsoDomainVerification | undefined,
  joinRole: MemberRole | null,
): SsoDomainState {
  if (verification === undefined)
    return {
      domain: toUnicodeHostname(domain),
      status: 'unverified',
      since: null,
      recordMissingSince: null,
      record: null,
      joinRole,
    };
  return {
    domain: toUnicodeHostname(domain),
    status: verification.status,
    since: verification.since,
    recordMissingSince: verification.missingSince,
    record: { name: ssoVerificationRecordName(domain), type: 'TXT', value: verification.token },
    joinRole,
  };
}
