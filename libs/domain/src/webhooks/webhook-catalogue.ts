// What a webhook receiver sees of each organization event: its type (`<noun>.<past verb>`) and the fields it may
// hold. The table is over every organization event, so a new event does not compile until it is placed here; the
// fields are picked one by one, so that a secret an event holds (an SSO client secret, a DNS token) never leaves.
import type { OrganizationEvent, OrganizationEventType } from '../organization/events.js';

export const WEBHOOK_EVENT_TYPES = [
  'organization.created',
  'plan.changed',
  'addon.purchased',
  'addon.cancelled',
  'member.added',
  'member.removed',
  'member.role_changed',
  'site.added',
  'site.removed',
  'domain.added',
  'domain.removed',
  'sso.changed',
  'signin_policy.changed',
  'traffic.threshold_reached',
  'person.erased',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (value: string): value is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

type EventOf<Type extends OrganizationEventType> = Extract<OrganizationEvent, { type: Type }>;
type Entry<Type extends OrganizationEventType> = { type: WebhookEventType; data: (data: EventOf<Type>['data']) => Record<string, unknown> } | null;
type Catalogue = { [Type in OrganizationEventType]: Entry<Type> };

const same = (data: object): Record<string, unknown> => ({ ...data });

const CATALOGUE: Catalogue = {
  OrganizationCreated: { type: 'organization.created', data: ({ name }) => ({ name }) },
  PlanAssigned: { type: 'plan.changed', data: ({ line, plan, serviceLevel }) => ({ line, plan, ...(serviceLevel === undefined ? {} : { serviceLevel }) }) },
  PlanEnded: { type: 'plan.changed', data: ({ line, plan }) => ({ line, plan: null, endedPlan: plan }) },
  AddOnPurchased: { type: 'addon.purchased', data: ({ addOn, quantity }) => ({ addOn, quantity }) },
  AddOnCancelled: { type: 'addon.cancelled', data: ({ addOn, quantity }) => ({ addOn, quantity }) },
  MemberAdded: { type: 'member.added', data: ({ userId, email, role }) => ({ userId, email, role }) },
  MemberRemoved: { type: 'member.removed', data: ({ userId }) => ({ userId }) },
  MemberErased: { type: 'person.erased', data: ({ userId }) => ({ userId }) },
  MemberRoleChanged: { type: 'member.role_changed', data: ({ userId, role, previousRole }) => ({ userId, role, previousRole }) },
  InvitationResent: null,
  SiteAdded: { type: 'site.added', data: same },
  SiteRemoved: { type: 'site.removed', data: same },
  QualityAssuranceDomainAdded: { type: 'domain.added', data: ({ domain }) => ({ domain, kind: 'quality-assurance' }) },
  QualityAssuranceDomainRemoved: { type: 'domain.removed', data: ({ domain }) => ({ domain, kind: 'quality-assurance' }) },
  WebAnalyticsDomainAdded: { type: 'domain.added', data: ({ domain }) => ({ domain, kind: 'web-analytics' }) },
  WebAnalyticsDomainRemoved: { type: 'domain.removed', data: ({ domain }) => ({ domain, kind: 'web-analytics' }) },
  SsoConfigured: { type: 'sso.changed', data: ({ issuer, domains, enforce }) => ({ change: 'configured', issuer, domains, enforce }) },
  SsoDisabled: { type: 'sso.changed', data: () => ({ change: 'disabled' }) },
  SsoDomainPending: { type: 'sso.changed', data: ({ domain }) => ({ change: 'domain-pending', domain }) },
  SsoDomainVerified: { type: 'sso.changed', data: ({ domain }) => ({ change: 'domain-verified', domain }) },
  SsoDomainRecordMissing: { type: 'sso.changed', data: ({ domain }) => ({ change: 'domain-record-missing', domain }) },
  SsoDomainUnverified: { type: 'sso.changed', data: ({ domain }) => ({ change: 'domain-unverified', domain }) },
  TwoStepSignInPolicySet: { type: 'signin_policy.changed', data: ({ required }) => ({ twoStepRequired: required }) },
  TrafficThresholdReached: { type: 'traffic.threshold_reached', data: ({ period, threshold, used, allowance }) => ({ period, threshold, used, allowance }) },
  // Limits and billing's own bookkeeping: what they change reaches receivers as `plan.changed` and `addon.*`.
  ChorusEnabled: null,
  ChorusDisabled: null,
  LimitsConfigured: null,
  SubscriptionChanged: null,
  SubscriptionTrialEnding: null,
  StripeCustomerBound: null,
};

export type WebhookEvent = { type: WebhookEventType; data: Record<string, unknown> };

/** Undefined: the event is not in the catalogue (or not an organization event at all). */
export function webhookEventOf(type: string, data: unknown): WebhookEvent | undefined {
  const entry = (CATALOGUE as Record<string, Entry<OrganizationEventType> | undefined>)[type];
  if (entry === undefined || entry === null) return undefined;
  return { type: entry.type, data: (entry.data as (data: unknown) => Record<string, unknown>)(data) };
}

/** `["*"]` is every type, today's and tomorrow's. */
export const wantsWebhookEvent = (subscribed: readonly string[], type: WebhookEventType): boolean => subscribed.includes('*') || subscribed.includes(type);
