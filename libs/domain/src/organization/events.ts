// The organization's events: the only source of its state (stream `organization-<id>`).
// Event data carries no timestamps or actors: those live in the event-store metadata.
import type { SubscriptionStatus, SubscriptionTerms } from '../billing/subscription.js';
import type { AddOn, Line, PlanName, ServiceLevel } from '../plans/catalogue.js';

/** auditor: reads the organization and its history, changes nothing; counts towards the users limit like everyone. */
export type MemberRole = 'owner' | 'admin' | 'member' | 'auditor';

export type OrganizationCreated = { type: 'OrganizationCreated'; data: { id: string; name: string } };
/** subscriptionId: the payment provider's subscription that brought it (absent: assigned by hand or by the generic billing events). */
export type PlanAssigned = {
  type: 'PlanAssigned';
  data: { line: Line; plan: PlanName; serviceLevel?: ServiceLevel; subscriptionId?: string };
};
export type AddOnPurchased = { type: 'AddOnPurchased'; data: { addOn: AddOn; quantity: number; subscriptionId?: string } };
export type AddOnCancelled = { type: 'AddOnCancelled'; data: { addOn: AddOn; quantity: number; subscriptionId?: string } };
/** The line has no plan any more (its subscription ended or dropped it): adds answer NO_PLAN; nothing in use is removed. */
export type PlanEnded = { type: 'PlanEnded'; data: { line: Line; plan: PlanName; subscriptionId?: string } };
/** The subscription's status or dates changed (or another subscription took its place: previousStatus null). */
export type SubscriptionChanged = { type: 'SubscriptionChanged'; data: SubscriptionTerms & { previousStatus: SubscriptionStatus | null } };
/** The provider announced the trial's end (a few days before it): the owners are told once per trial end. */
export type SubscriptionTrialEnding = { type: 'SubscriptionTrialEnding'; data: { subscriptionId: string; trialEndsAt: string } };
export type ChorusEnabled = { type: 'ChorusEnabled'; data: { parallelUse?: boolean } };
export type ChorusDisabled = { type: 'ChorusDisabled'; data: Record<string, never> };
/** Each limit: a number (0 = unlimited) sets it; null clears it back to the plan-derived value. */
export type LimitsConfigured = {
  type: 'LimitsConfigured';
  data: {
    users?: number | null;
    contentSections?: number | null;
    qualityAssuranceDomains?: number | null;
    webAnalyticsDomains?: number | null;
    override?: boolean;
  };
};
export type MemberAdded = {
  type: 'MemberAdded';
  data: { userId: string; email: string; role: MemberRole; chorusUser: boolean };
};
export type MemberRemoved = { type: 'MemberRemoved'; data: { userId: string } };
/** email is the member's, as added; previousRole says what the change undid, for auditors. */
/** A pending member's invitation mailed again at someone's request (the mail itself is identity's). */
export type InvitationResent = { type: 'InvitationResent'; data: { userId: string; email: string } };
export type MemberRoleChanged = { type: 'MemberRoleChanged'; data: { userId: string; email: string; role: MemberRole; previousRole: MemberRole } };
/** hostname is stored in ASCII (punycode) form. */
export type SiteAdded = { type: 'SiteAdded'; data: { siteId: string; name: string; hostname: string } };
export type SiteRemoved = { type: 'SiteRemoved'; data: { siteId: string } };
export type QualityAssuranceDomainAdded = { type: 'QualityAssuranceDomainAdded'; data: { domain: string } };
export type QualityAssuranceDomainRemoved = { type: 'QualityAssuranceDomainRemoved'; data: { domain: string } };
export type WebAnalyticsDomainAdded = { type: 'WebAnalyticsDomainAdded'; data: { domain: string } };
export type WebAnalyticsDomainRemoved = { type: 'WebAnalyticsDomainRemoved'; data: { domain: string } };
/**
 * Enterprise single sign-on set (or changed, in full). clientSecret is sealed (`v1.<keyId>.<iv>.<ciphertext>`,
 * AES-256-GCM under SSO_SECRET_KEYS), never clear; domains in ASCII form.
 */
export type SsoConfigured = {
  type: 'SsoConfigured';
  data: { issuer: string; clientId: string; clientSecret: string; domains: string[]; enforce: boolean };
};
export type SsoDisabled = { type: 'SsoDisabled'; data: Record<string, never> };
/**
 * A listed domain awaits proof of control: the TXT record `_chorus-verification.<domain>` must hold the
 * token. Until verified it signs no one in. `at`: the application's clock (the domain has none).
 */
export type SsoDomainPending = { type: 'SsoDomainPending'; data: { domain: string; token: string; at: string } };
/** The token was found in the domain's DNS: the domain signs in through this organization. */
export type SsoDomainVerified = { type: 'SsoDomainVerified'; data: { domain: string; at: string } };
/** A verified domain's record was not found: it stays verified for the grace period, then is unverified. */
export type SsoDomainRecordMissing = { type: 'SsoDomainRecordMissing'; data: { domain: string; at: string } };
/** The record stayed missing for the whole grace period: the domain signs no one in until it is found again. */
export type SsoDomainUnverified = { type: 'SsoDomainUnverified'; data: { domain: string; at: string } };
/** The month's traffic (period: YYYY-MM, UTC) reached `threshold` percent of the allowance: `used` of `allowance` when counted. */
export type TrafficThresholdReached = { type: 'TrafficThresholdReached'; data: { period: string; threshold: 80 | 100; used: number; allowance: number } };

/** Whether every member must pass a second step at password sign-in (those without a factor enrol first). */
export type TwoStepSignInPolicySet = { type: 'TwoStepSignInPolicySet'; data: { required: boolean } };

export type OrganizationEvent =
  | OrganizationCreated
  | PlanAssigned
  | AddOnPurchased
  | AddOnCancelled
  | ChorusEnabled
  | ChorusDisabled
  | LimitsConfigured
  | MemberAdded
  | MemberRemoved
  | MemberRoleChanged
  | InvitationResent
  | SiteAdded
  | SiteRemoved
  | QualityAssuranceDomainAdded
  | QualityAssuranceDomainRemoved
  | WebAnalyticsDomainAdded
  | WebAnalyticsDomainRemoved
  | SsoConfigured
  | SsoDisabled
  | SsoDomainPending
  | SsoDomainVerified
  | SsoDomainRecordMissing
  | SsoDomainUnverified
  | TrafficThresholdReached
  | PlanEnded
  | SubscriptionChanged
  | SubscriptionTrialEnding
  | TwoStepSignInPolicySet;

export type OrganizationEventType = OrganizationEvent['type'];

const everyEventType: Record<OrganizationEventType, true> = {
  OrganizationCreated: true,
  PlanAssigned: true,
  AddOnPurchased: true,
  AddOnCancelled: true,
  ChorusEnabled: true,
  ChorusDisabled: true,
  LimitsConfigured: true,
  MemberAdded: true,
  MemberRemoved: true,
  MemberRoleChanged: true,
  InvitationResent: true,
  SiteAdded: true,
  SiteRemoved: true,
  QualityAssuranceDomainAdded: true,
  QualityAssuranceDomainRemoved: true,
  WebAnalyticsDomainAdded: true,
  WebAnalyticsDomainRemoved: true,
  SsoConfigured: true,
  SsoDisabled: true,
  SsoDomainPending: true,
  SsoDomainVerified: true,
  SsoDomainRecordMissing: true,
  SsoDomainUnverified: true,
  TrafficThresholdReached: true,
  PlanEnded: true,
  SubscriptionChanged: true,
  SubscriptionTrialEnding: true,
  TwoStepSignInPolicySet: true,
};
/** Every type evolve folds (the compiler checks the list is whole), for readers that must refuse any other. */
export const ORGANIZATION_EVENT_TYPES = Object.keys(everyEventType) as readonly OrganizationEventType[];

export const organizationStreamPrefix = 'organization-';
export const organizationStream = (organizationId: string): string => `${organizationStreamPrefix}${organizationId}`;
