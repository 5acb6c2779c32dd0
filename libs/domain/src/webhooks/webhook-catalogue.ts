// What a webhook receiver sees of each organization event: its type (`<noun>.<past verb>`) and the fields it may
// hold. The table is over every organization event, so a new event does not compile until it is placed here; the
// fields are picked one by one, so that a secret an event holds (an SSO client secret, a DNS token) never leaves.
import type { OrganizationEvent, OrganizationEventType } from '../organization/events.js';
import { accountAttemptsStreamPrefix } from '../sign-in/sign-in-attempts.js';
import { userStreamPrefix, type UserEvent, type UserEventType } from '../user/events.js';

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
  'signin.succeeded',
  'signin.failed',
  'factor.added',
  'factor.removed',
  'session.revoked',
  'entitlements.changed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (value: string): value is WebhookEventType =>
  (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);

type EventOf<Type extends OrganizationEventType> = Extract<OrganizationEvent, { type: Type }>;
type Entry<Type extends OrganizationEventType> = {
  type: WebhookEventType;
  data: (data: EventOf<Type>['data']) => Record<string, unknown>;
} | null;
type Catalogue = { [Type in OrganizationEventType]: Entry<Type> };

const same = (data: object): Record<string, unknown> => ({ ...data });

const CATALOGUE: Catalogue = {
  OrganizationCreated: { type: 'organization.created', data: ({ name }) => ({ name }) },
  PlanAssigned: {
    type: 'plan.changed',
    data: ({ line, plan, serviceLevel }) => ({ line, plan, ...(serviceLevel === undefined ? {} : { serviceLevel }) }),
  },
  PlanEnded: { type: 'plan.changed', data: ({ line, plan }) => ({ line, plan: null, endedPlan: plan }) },
  AddOnPurchased: { type: 'addon.purchased', data: ({ addOn, quantity }) => ({ addOn, quantity }) },
  AddOnCancelled: { type: 'addon.cancelled', data: ({ addOn, quantity }) => ({ addOn, quantity }) },
  MemberAdded: { type: 'member.added', data: ({ userId, email, role }) => ({ userId, email, role }) },
  MemberRemoved: { type: 'member.removed', data: ({ userId }) => ({ userId }) },
  MemberErased: { type: 'person.erased', data: ({ userId }) => ({ userId }) },
  MemberRoleChanged: {
    type: 'member.role_changed',
    data: ({ userId, role, previousRole }) => ({ userId, role, previousRole }),
  },
  InvitationResent: null,
  SiteAdded: { type: 'site.added', data: same },
  SiteRemoved: { type: 'site.removed', data: same },
  QualityAssuranceDomainAdded: { type: 'domain.added', data: ({ domain }) => ({ domain, kind: 'quality-assurance' }) },
  QualityAssuranceDomainRemoved: {
    type: 'domain.removed',
    data: ({ domain }) => ({ domain, kind: 'quality-assurance' }),
  },
  WebAnalyticsDomainAdded: { type: 'domain.added', data: ({ domain }) => ({ domain, kind: 'web-analytics' }) },
  WebAnalyticsDomainRemoved: { type: 'domain.removed', data: ({ domain }) => ({ domain, kind: 'web-analytics' }) },
  SsoConfigured: {
    type: 'sso.changed',
    data: ({ issuer, domains, enforce }) => ({ change: 'configured', protocol: 'oidc', issuer, domains, enforce }),
  },
  SamlSsoConfigured: {
    type: 'sso.changed',
    data: ({ idpEntityId, domains, enforce }) => ({
      change: 'configured',
      protocol: 'saml',
      idpEntityId,
      domains,
      enforce,
    }),
  },
  SsoDisabled: { type: 'sso.changed', data: () => ({ change: 'disabled' }) },
  SsoDomainPending: { type: 'sso.changed', data: ({ domain }) => ({ change: 'domain-pending', domain }) },
  SsoDomainVerified: { type: 'sso.changed', data: ({ domain }) => ({ change: 'domain-verified', domain }) },
  SsoDomainRecordMissing: { type: 'sso.changed', data: ({ domain }) => ({ change: 'domain-record-missing', domain }) },
  SsoDomainUnverified: { type: 'sso.changed', data: ({ domain }) => ({ change: 'domain-unverified', domain }) },
  TwoStepSignInPolicySet: { type: 'signin_policy.changed', data: ({ required }) => ({ twoStepRequired: required }) },
  DomainJoinSet: {
    type: 'sso.changed',
    data: ({ domain, join, role }) => ({
      change: 'domain-join',
      domain,
      join,
      ...(role === undefined ? {} : { role }),
    }),
  },
  TrafficThresholdReached: {
    type: 'traffic.threshold_reached',
    data: ({ period, threshold, used, allowance }) => ({ period, threshold, used, allowance }),
  },
  // Limits and billing's own bookkeeping: what they change reaches receivers as `plan.changed` and `addon.*`.
  ChorusEnabled: null,
  // The owners' mail about it is the news; the person is not named.
  AutomaticJoinRefused: null,
  ChorusDisabled: null,
  LimitsConfigured: null,
  SubscriptionChanged: null,
  SubscriptionTrialEnding: null,
  StripeCustomerBound: null,
};

export type WebhookEvent = { type: WebhookEventType; data: Record<string, unknown> };

// A member's own events, from their user stream and their account's sign-in attempts: each goes to the organizations
// the person was a member of when it happened. Only ids and kinds, never a name, address, passkey name or secret.
type UserEventOf<Type extends UserEventType> = Extract<UserEvent, { type: Type }>;
type MemberEntry<Type extends UserEventType> = ((data: UserEventOf<Type>['data']) => WebhookEvent | undefined) | null;
type MemberCatalogue = { [Type in UserEventType]: MemberEntry<Type> };

const sessionsEnded = (reason: string, endedSessionIds: readonly string[]): WebhookEvent | undefined =>
  endedSessionIds.length === 0
    ? undefined
    : { type: 'session.revoked', data: { reason, sessions: endedSessionIds.length } };

const MEMBER_CATALOGUE: MemberCatalogue = {
  // Half open while a second step is awaited: the sign-in succeeds when it is passed.
  SignedIn: ({ method, awaiting }) =>
    awaiting === undefined ? { type: 'signin.succeeded', data: { method } } : undefined,
  SecondStepPassed: ({ method }) => ({ type: 'signin.succeeded', data: { method: 'two-step', secondStep: method } }),
  SecondStepFailed: ({ method }) => ({ type: 'signin.failed', data: { step: 'second-step', secondStep: method } }),
  SignInFailed: ({ reason }) => ({ type: 'signin.failed', data: { step: 'password', reason } }),
  AuthenticatorAppEnrolled: () => ({ type: 'factor.added', data: { factor: 'authenticator-app' } }),
  PasskeyRegistered: () => ({ type: 'factor.added', data: { factor: 'passkey' } }),
  RecoveryCodesGenerated: () => ({ type: 'factor.added', data: { factor: 'recovery-codes' } }),
  AuthenticatorAppRemoved: () => ({ type: 'factor.removed', data: { factor: 'authenticator-app' } }),
  PasskeyRemoved: () => ({ type: 'factor.removed', data: { factor: 'passkey' } }),
  SecondFactorsReset: ({ authority }) => ({ type: 'factor.removed', data: { factor: 'all', authority } }),
  SignedOut: ({ revoked }) => ({
    type: 'session.revoked',
    data: { reason: revoked === true ? 'revoked' : 'signed-out', sessions: 1 },
  }),
  PasswordChanged: ({ endedSessionIds }) => sessionsEnded('password-changed', endedSessionIds),
  PasswordResetCompleted: ({ endedSessionIds }) => sessionsEnded('password-reset', endedSessionIds),
  // The organization's own `person.erased` says it.
  PersonalDataErased: null,
  UserRegistered: null,
  PasswordSet: null,
  GoogleAccountLinked: null,
  SsoAccountLinked: null,
  PasswordResetRequested: null,
  PasskeyRenamed: null,
  SecondFactorsResetRequested: null,
  FactorChangeConfirmed: null,
};

const FACTOR_WORDS: Record<string, string> = {
  'authenticator-app': 'an authenticator app',
  passkey: 'a passkey',
  'recovery-codes': 'recovery codes',
  'recovery-code': 'a recovery code',
  enrolment: 'setting up a second factor',
  all: 'every second factor',
};
const REVOKED_WORDS: Record<string, string> = {
  'signed-out': 'signed out',
  revoked: 'ended from another session',
  'password-changed': 'ended by a password change',
  'password-reset': 'ended by a password reset',
};

/** The sentence Splunk and Datadog show for a member's own event; `who` is the member's address in the organization. */
export function memberActivitySentence({ type, data }: WebhookEvent, who: string): string {
  const words = (key: unknown, table: Record<string, string>): string => table[String(key)] ?? String(key);
  switch (type) {
    case 'signin.succeeded':
      return data.method === 'two-step'
        ? `${who} signed in, the second step with ${words(data.secondStep, FACTOR_WORDS)}`
        : `${who} signed in (${String(data.method)})`;
    case 'signin.failed':
      return data.step === 'password'
        ? `Sign-in failed for ${who}: wrong password`
        : `Sign-in failed for ${who}: the second step with ${words(data.secondStep, FACTOR_WORDS)}`;
    case 'factor.added':
      return `${who} added ${words(data.factor, FACTOR_WORDS)} as a second factor`;
    case 'factor.removed':
      return `${who} no longer has ${words(data.factor, FACTOR_WORDS)} as a second factor`;
    case 'session.revoked': {
      const count = Number(data.sessions);
      return `${count === 1 ? 'A session' : `${count} sessions`} of ${who} ${words(data.reason, REVOKED_WORDS)}`;
    }
    default:
      return `${who}: ${type}`;
  }
}

/** The person's id and what a receiver sees; undefined for an event no organization's receiver gets. */
export function memberActivityOf(
  streamId: string,
  type: string,
  data: unknown,
): { userId: string; event: WebhookEvent } | undefined {
  if (streamId.startsWith(accountAttemptsStreamPrefix)) {
    if (type !== 'SignInAttemptFailed') return undefined;
    return {
      userId: streamId.slice(accountAttemptsStreamPrefix.length),
      event: { type: 'signin.failed', data: { step: 'password', reason: 'wrong-password' } },
    };
  }
  if (!streamId.startsWith(userStreamPrefix)) return undefined;
  const entry = (MEMBER_CATALOGUE as Record<string, MemberEntry<UserEventType> | undefined>)[type];
  const event =
    entry === undefined || entry === null ? undefined : (entry as (data: unknown) => WebhookEvent | undefined)(data);
  return event === undefined ? undefined : { userId: streamId.slice(userStreamPrefix.length), event };
}

/** Undefined: the event is not in the catalogue (or not an organization event at all). */
export function webhookEventOf(type: string, data: unknown): WebhookEvent | undefined {
  const entry = (CATALOGUE as Record<string, Entry<OrganizationEventType> | undefined>)[type];
  if (entry === undefined || entry === null) return undefined;
  return { type: entry.type, data: (entry.data as (data: unknown) => Record<string, unknown>)(data) };
}

/** `["*"]` is every type, today's and tomorrow's. */
export const wantsWebhookEvent = (subscribed: readonly string[], type: WebhookEventType): boolean =>
  subscribed.includes('*') || subscribed.includes(type);
