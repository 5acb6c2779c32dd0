// The compiler asks for a sentence for each event type, so a new event cannot reach the history without words.
import { toUnicodeHostname } from '../hostnames/parse-hostname.js';
import { LIMITED_RESOURCES } from '../limits/limited-resources.js';
import {
  ORGANIZATION_EVENT_TYPES,
  type OrganizationEvent,
  type OrganizationEventType,
  type SubscriptionChanged,
} from '../organization/events.js';
import type { ExistingOrganization, OrganizationState } from '../organization/state.js';
import {
  ADD_ON_NAMES,
  formatCount,
  LINE_NAMES,
  RESOURCE_NAMES,
  ROLE_WORDS,
  SERVICE_LEVEL_NAMES,
} from './history-words.js';

/** For what events name by id only; absent, the id is shown. */
export type RecordNames = {
  memberEmail(userId: string): string | undefined;
  site(siteId: string): { name: string; hostname: string } | undefined;
};

export const NO_NAMES: RecordNames = { memberEmail: () => undefined, site: () => undefined };

/** The state just before an event names everything it removes. */
export function namesIn(state: OrganizationState): RecordNames {
  if (!state.exists) return NO_NAMES;
  const organization: ExistingOrganization = state;
  return {
    memberEmail: (userId) => organization.members.get(userId)?.email,
    site: (siteId) => organization.sites.find((site) => site.siteId === siteId),
  };
}

type EventOf<Type extends OrganizationEventType> = Extract<OrganizationEvent, { type: Type }>;
type Sentences = { [Type in OrganizationEventType]: (data: EventOf<Type>['data'], names: RecordNames) => string };

const quantityOf = (quantity: number, addOn: string): string =>
  quantity === 1 ? addOn : `${formatCount(quantity)} × ${addOn}`;

const limitWords = (value: number | null): string =>
  value === null ? 'from the plan' : value === 0 ? 'unlimited' : formatCount(value);

const siteWords = (name: string, hostname: string): string => `${name} (${toUnicodeHostname(hostname)})`;

export const EVENT_TYPE_NAMES: Record<OrganizationEventType, string> = {
  OrganizationCreated: 'Organization created',
  PlanAssigned: 'Plan assigned',
  AddOnPurchased: 'Add-on purchased',
  AddOnCancelled: 'Add-on cancelled',
  ChorusEnabled: 'Chorus turned on',
  ChorusDisabled: 'Chorus turned off',
  LimitsConfigured: 'Limits configured',
  MemberAdded: 'Member added',
  MemberRemoved: 'Member removed',
  MemberErased: 'A person’s personal data was erased',
  MemberRoleChanged: 'Role changed',
  InvitationResent: 'Invitation sent again',
  SiteAdded: 'Site added',
  SiteRemoved: 'Site removed',
  QualityAssuranceDomainAdded: 'QA domain added',
  QualityAssuranceDomainRemoved: 'QA domain removed',
  WebAnalyticsDomainAdded: 'Web analytics domain added',
  WebAnalyticsDomainRemoved: 'Web analytics domain removed',
  SsoConfigured: 'Single sign-on configured',
  SamlSsoConfigured: 'Single sign-on configured (SAML)',
  SsoDisabled: 'Single sign-on turned off',
  SsoDomainPending: 'Single sign-on domain awaiting verification',
  SsoDomainVerified: 'Single sign-on domain verified',
  SsoDomainRecordMissing: 'Single sign-on domain record missing',
  SsoDomainUnverified: 'Single sign-on domain no longer verified',
  TrafficThresholdReached: 'Traffic allowance threshold reached',
  PlanEnded: 'Plan ended',
  SubscriptionChanged: 'Subscription changed',
  SubscriptionTrialEnding: 'Trial ending soon',
  StripeCustomerBound: 'Stripe customer bound',
  TwoStepSignInPolicySet: 'Two-step sign-in',
  DomainJoinSet: 'Joining by domain',
  AutomaticJoinRefused: 'Joining by domain refused',
};

const DETAILS: Sentences = {
  OrganizationCreated: ({ name }) => name,
  PlanAssigned: ({ line, plan, serviceLevel }) =>
    `${LINE_NAMES[line]} ${plan}${serviceLevel === undefined ? '' : `, ${SERVICE_LEVEL_NAMES[serviceLevel]} service level`}`,
  AddOnPurchased: ({ addOn, quantity }) => quantityOf(quantity, ADD_ON_NAMES[addOn]),
  AddOnCancelled: ({ addOn, quantity }) => quantityOf(quantity, ADD_ON_NAMES[addOn]),
  ChorusEnabled: ({ parallelUse, paidPlan }) =>
    paidPlan !== undefined
      ? `the Chorus ${paidPlan} plan was paid for through billing, so it is in effect`
      : parallelUse === undefined
        ? ''
        : parallelUse
          ? 'with parallel use'
          : 'without parallel use',
  ChorusDisabled: () => '',
  LimitsConfigured: (data) => {
    const parts = LIMITED_RESOURCES.filter((resource) => data[resource] !== undefined).map(
      (resource) => `${RESOURCE_NAMES[resource]} ${limitWords(data[resource] ?? null)}`,
    );
    if (data.override !== undefined) parts.push(`override ${data.override ? 'on' : 'off'}`);
    return parts.join(', ');
  },
  MemberAdded: ({ email, role, chorusUser }) => `${email} as ${ROLE_WORDS[role]}${chorusUser ? ', Chorus user' : ''}`,
  MemberRemoved: ({ userId }, names) => names.memberEmail(userId) ?? `user ${userId}`,
  MemberErased: () => '',
  MemberRoleChanged: ({ email, role, previousRole }) =>
    `${email} from ${ROLE_WORDS[previousRole]} to ${ROLE_WORDS[role]}`,
  InvitationResent: ({ email }) => email,
  SiteAdded: ({ name, hostname }) => siteWords(name, hostname),
  SiteRemoved: ({ siteId }, names) => {
    const site = names.site(siteId);
    return site === undefined ? `site ${siteId}` : siteWords(site.name, site.hostname);
  },
  QualityAssuranceDomainAdded: ({ domain }) => toUnicodeHostname(domain),
  QualityAssuranceDomainRemoved: ({ domain }) => toUnicodeHostname(domain),
  WebAnalyticsDomainAdded: ({ domain }) => toUnicodeHostname(domain),
  WebAnalyticsDomainRemoved: ({ domain }) => toUnicodeHostname(domain),
  // Never the client secret, not even sealed: the history is read by auditors, and exported.
  SsoConfigured: ({ issuer, domains, enforce, trustProviderMfa }) =>
    `${issuer} for ${domains.join(', ')}${enforce ? ', required' : ''}${trustProviderMfa === true ? ", the provider's MFA trusted" : ''}`,
  SamlSsoConfigured: ({ idpEntityId, domains, enforce, allowIdpInitiated, trustProviderMfa }) =>
    `${idpEntityId} for ${domains.join(', ')}${enforce ? ', required' : ''}${allowIdpInitiated ? ', sign-ins started at the provider allowed' : ''}${trustProviderMfa === true ? ", the provider's MFA trusted" : ''}`,
  SsoDisabled: () => '',
  // Not the token: it is only worth something in the domain's DNS, and the history is exported.
  SsoDomainPending: ({ domain }) => `${toUnicodeHostname(domain)}, until its DNS record is published`,
  SsoDomainVerified: ({ domain }) => `${toUnicodeHostname(domain)}, its DNS record was found`,
  SsoDomainRecordMissing: ({ domain }) =>
    `${toUnicodeHostname(domain)}, its DNS record was not found (still verified during the grace period)`,
  SsoDomainUnverified: ({ domain }) =>
    `${toUnicodeHostname(domain)}, its DNS record was missing for the whole grace period`,
  TrafficThresholdReached: ({ period, threshold, used, allowance }) =>
    `${threshold}% of ${monthInWords(period)}'s ${allowance.toLocaleString('en-US')} page views (${used.toLocaleString('en-US')} counted)`,
  PlanEnded: ({ line, plan }) => `${LINE_NAMES[line]} ${plan}; nothing in use was removed, adds wait for a plan`,
  SubscriptionChanged: subscriptionWords,
  SubscriptionTrialEnding: ({ trialEndsAt }) => `on ${dayInWords(trialEndsAt)}; the owners were told`,
  StripeCustomerBound: ({ customerId }) => `${customerId}; only its subscriptions change the organization's plans`,
  TwoStepSignInPolicySet: ({ required }) =>
    required
      ? 'required of every member: those without a second factor set one up at their next sign-in'
      : 'no longer required',
  DomainJoinSet: ({ domain, join, role }) =>
    join === 'automatic'
      ? `people of ${toUnicodeHostname(domain)} join as ${ROLE_WORDS[role ?? 'member']} when they sign in`
      : `people of ${toUnicodeHostname(domain)} join by invitation only`,
  AutomaticJoinRefused: ({ domain }) =>
    `a person of ${toUnicodeHostname(domain)} could not join: the users limit is reached; the owners were told`,
};

function subscriptionWords(terms: SubscriptionChanged['data']): string {
  const { status, previousStatus, trialEndsAt, endsOn, currentPeriod, subscriptionId } = terms;
  const parts: string[] = [];
  if (status === 'ended')
    parts.push(
      `ended${terms.endedAt === null ? '' : ` on ${dayInWords(terms.endedAt)}`}: no plan is in force, nothing was removed`,
    );
  if (status === 'past_due') parts.push('payment failed: the plan stays in force while the payment is retried');
  if (status === 'trialing') parts.push(trialEndsAt === null ? 'trial' : `trial until ${dayInWords(trialEndsAt)}`);
  if (status === 'active')
    parts.push(previousStatus === 'past_due' ? 'active again: the payment was received' : 'active');
  if (status !== 'ended' && endsOn !== null) parts.push(`ends on ${dayInWords(endsOn)}`);
  else if (status === 'active' && currentPeriod !== null) parts.push(`renews on ${dayInWords(currentPeriod.end)}`);
  return `${parts.join(', ')} (Stripe subscription ${subscriptionId})`;
}

function dayInWords(instant: string): string {
  return new Date(instant).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

function monthInWords(period: string): string {
  const [year, month] = period.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, 1)).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

export const isOrganizationEventType = (type: string): type is OrganizationEventType =>
  (ORGANIZATION_EVENT_TYPES as readonly string[]).includes(type);

/** A type this version has no sentence for still reads as words. */
export const typeInWords = (type: string): string => {
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function eventSentence(event: OrganizationEvent, names: RecordNames = NO_NAMES): string {
  const details = (DETAILS[event.type] as (data: OrganizationEvent['data'], names: RecordNames) => string)(
    event.data,
    names,
  );
  return details === '' ? EVENT_TYPE_NAMES[event.type] : `${EVENT_TYPE_NAMES[event.type]}: ${details}`;
}

/** Data is trusted as recorded: decide validated it when it was written. */
export function recordedEventSentence(type: string, data: unknown, names: RecordNames = NO_NAMES): string {
  if (!isOrganizationEventType(type) || typeof data !== 'object' || data === null) return typeInWords(type);
  return eventSentence({ type, data } as OrganizationEvent, names);
}
