// The organization's events, as the rest of the code names them (stream `organization-<id>`). Each event's
// type and fold sit beside the decision that records it (decisions/<command>.ts); the union is read off
// the table in decisions.ts. Event data carries no timestamps or actors: those live in the event-store metadata.
export {
  ORGANIZATION_EVENT_TYPES,
  type OrganizationEvent,
  type OrganizationEventOf,
  type OrganizationEventType,
} from './decisions.js';
export type { MemberRole } from './member-roles.js';

// Each event by name, as other code imports them; `OrganizationEventOf<'Type'>` names any event, a new one too.
export type { AddOnCancelled } from './decisions/cancel-add-on.js';
export type { AddOnPurchased } from './decisions/purchase-add-on.js';
export type { ChorusDisabled } from './decisions/disable-chorus.js';
export type { ChorusEnabled } from './decisions/enable-chorus.js';
export type { InvitationResent } from './decisions/resend-invitation.js';
export type { LimitsConfigured } from './decisions/configure-limits.js';
export type { MemberAdded } from './decisions/add-member.js';
export type { MemberRemoved } from './decisions/remove-member.js';
export type { MemberRoleChanged } from './decisions/change-member-role.js';
export type { OrganizationCreated } from './decisions/create-organization.js';
export type { PlanAssigned } from './decisions/assign-plan.js';
export type { PlanEnded, SubscriptionChanged } from './decisions/sync-subscription.js';
export type { QualityAssuranceDomainAdded } from './decisions/add-quality-assurance-domain.js';
export type { QualityAssuranceDomainRemoved } from './decisions/remove-quality-assurance-domain.js';
export type { SiteAdded } from './decisions/add-site.js';
export type { SiteRemoved } from './decisions/remove-site.js';
export type { SsoChecks, SsoConfigured, SsoDomainPending } from './decisions/configure-sso.js';
export type { SamlIdentityProvider, SamlSsoConfigured } from './decisions/configure-saml-sso.js';
export type { SsoDisabled } from './decisions/disable-sso.js';
export type {
  SsoDomainRecordMissing,
  SsoDomainUnverified,
  SsoDomainVerified,
} from './decisions/record-sso-domain-check.js';
export type { SubscriptionTrialEnding } from './decisions/note-trial-ending.js';
export type { TrafficThresholdReached } from './decisions/record-traffic-threshold.js';
export type { TwoStepSignInPolicySet } from './decisions/set-two-step-sign-in-policy.js';
export type { AutomaticJoinRefused, DomainJoinSet } from './decisions/set-domain-join.js';
export type { WebAnalyticsDomainAdded } from './decisions/add-web-analytics-domain.js';
export type { WebAnalyticsDomainRemoved } from './decisions/remove-web-analytics-domain.js';

export const organizationStreamPrefix = 'organization-';
export const organizationStream = (organizationId: string): string => `${organizationStreamPrefix}${organizationId}`;
