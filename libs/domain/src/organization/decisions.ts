// The one list a new command and a new event join: the command and event unions are read off these two tables.
import { DomainError } from '../errors.js';
import type { DecideContext } from './decide-context.js';
import { MANAGING_ROLES, type MemberRole } from './member-roles.js';
import type { Requester } from './requester.js';
import type { ExistingOrganization, OrganizationState } from './state.js';
import { addMember, withMemberAdded } from './decisions/add-member.js';
import {
  addQualityAssuranceDomain,
  withQualityAssuranceDomainAdded,
} from './decisions/add-quality-assurance-domain.js';
import { addSite, withSiteAdded } from './decisions/add-site.js';
import { addWebAnalyticsDomain, withWebAnalyticsDomainAdded } from './decisions/add-web-analytics-domain.js';
import { assignPlan, withPlanAssigned } from './decisions/assign-plan.js';
import { cancelAddOn, withAddOnCancelled } from './decisions/cancel-add-on.js';
import { changeMemberRole, withMemberRoleChanged } from './decisions/change-member-role.js';
import { configureLimits, withLimitsConfigured } from './decisions/configure-limits.js';
import { configureSamlSso, withSamlSsoConfigured } from './decisions/configure-saml-sso.js';
import { configureSso, withSsoConfigured, withSsoDomainPending } from './decisions/configure-sso.js';
import { createOrganization, withOrganizationCreated } from './decisions/create-organization.js';
import { disableChorus, withChorusDisabled } from './decisions/disable-chorus.js';
import { disableSso, withSsoDisabled } from './decisions/disable-sso.js';
import { enableChorus, withChorusEnabled } from './decisions/enable-chorus.js';
import { noteTrialEnding, withSubscriptionTrialEnding } from './decisions/note-trial-ending.js';
import { purchaseAddOn, withAddOnPurchased } from './decisions/purchase-add-on.js';
import {
  recordSsoDomainCheck,
  withSsoDomainRecordMissing,
  withSsoDomainUnverified,
  withSsoDomainVerified,
} from './decisions/record-sso-domain-check.js';
import { recordTrafficThreshold, withTrafficThresholdReached } from './decisions/record-traffic-threshold.js';
import { removeMember, withMemberRemoved } from './decisions/remove-member.js';
import { eraseMember, withMemberErased } from './decisions/erase-member.js';
import {
  removeQualityAssuranceDomain,
  withQualityAssuranceDomainRemoved,
} from './decisions/remove-quality-assurance-domain.js';
import { removeSite, withSiteRemoved } from './decisions/remove-site.js';
import { removeWebAnalyticsDomain, withWebAnalyticsDomainRemoved } from './decisions/remove-web-analytics-domain.js';
import { resendInvitation, withInvitationResent } from './decisions/resend-invitation.js';
import { setTwoStepSignInPolicy, withTwoStepSignInPolicySet } from './decisions/set-two-step-sign-in-policy.js';
import {
  recordAutomaticJoinRefusal,
  setDomainJoin,
  withAutomaticJoinRefused,
  withDomainJoinSet,
} from './decisions/set-domain-join.js';
import {
  syncSubscription,
  withPlanEnded,
  withStripeCustomerBound,
  withSubscriptionChanged,
} from './decisions/sync-subscription.js';

/** The same object when nothing changes. */
export type Evolver<Event> = (state: ExistingOrganization, event: Event) => ExistingOrganization;

/** A key that is not its event's `type` does not compile. */
type KeyedByEventType<Table> = {
  [Type in keyof Table]: Table[Type] extends Evolver<infer Event>
    ? [Event] extends [{ type: Type }]
      ? Table[Type]
      : never
    : never;
};

function byEventType<Table extends KeyedByEventType<Table>>(table: Table): Table {
  return table;
}

/** The order is the one readers list the types in (the audit explorer's filter). */
export const evolvers = byEventType({
  OrganizationCreated: withOrganizationCreated,
  PlanAssigned: withPlanAssigned,
  AddOnPurchased: withAddOnPurchased,
  AddOnCancelled: withAddOnCancelled,
  ChorusEnabled: withChorusEnabled,
  ChorusDisabled: withChorusDisabled,
  LimitsConfigured: withLimitsConfigured,
  MemberAdded: withMemberAdded,
  MemberRemoved: withMemberRemoved,
  MemberErased: withMemberErased,
  MemberRoleChanged: withMemberRoleChanged,
  InvitationResent: withInvitationResent,
  SiteAdded: withSiteAdded,
  SiteRemoved: withSiteRemoved,
  QualityAssuranceDomainAdded: withQualityAssuranceDomainAdded,
  QualityAssuranceDomainRemoved: withQualityAssuranceDomainRemoved,
  WebAnalyticsDomainAdded: withWebAnalyticsDomainAdded,
  WebAnalyticsDomainRemoved: withWebAnalyticsDomainRemoved,
  SsoConfigured: withSsoConfigured,
  SamlSsoConfigured: withSamlSsoConfigured,
  SsoDisabled: withSsoDisabled,
  SsoDomainPending: withSsoDomainPending,
  SsoDomainVerified: withSsoDomainVerified,
  SsoDomainRecordMissing: withSsoDomainRecordMissing,
  SsoDomainUnverified: withSsoDomainUnverified,
  TrafficThresholdReached: withTrafficThresholdReached,
  PlanEnded: withPlanEnded,
  SubscriptionChanged: withSubscriptionChanged,
  SubscriptionTrialEnding: withSubscriptionTrialEnding,
  StripeCustomerBound: withStripeCustomerBound,
  TwoStepSignInPolicySet: withTwoStepSignInPolicySet,
  DomainJoinSet: withDomainJoinSet,
  AutomaticJoinRefused: withAutomaticJoinRefused,
});

type Evolvers = typeof evolvers;

export type OrganizationEvent = { [Type in keyof Evolvers]: Parameters<Evolvers[Type]>[1] }[keyof Evolvers];
export type OrganizationEventType = OrganizationEvent['type'];
export type OrganizationEventOf<Type extends OrganizationEventType> = Extract<OrganizationEvent, { type: Type }>;

export const ORGANIZATION_EVENT_TYPES = Object.keys(evolvers) as readonly OrganizationEventType[];

export type Decision<C> = (command: C, state: OrganizationState, context: DecideContext) => OrganizationEvent[];

function existing(state: OrganizationState): ExistingOrganization {
  if (!state.exists) throw new DomainError('NOT_FOUND', 'The organization does not exist.', { entity: 'organization' });
  return state;
}

function onExisting<C>(
  decision: (command: C, state: ExistingOrganization, context: DecideContext) => OrganizationEvent[],
): Decision<C> {
  return (command, state, context) => decision(command, existing(state), context);
}

type KeyedByCommandType<Table> = {
  [Type in keyof Table]: Table[Type] extends (command: infer Command, ...rest: never[]) => OrganizationEvent[]
    ? Command extends { type: Type }
      ? Table[Type]
      : never
    : never;
};

function byCommandType<Table extends KeyedByCommandType<Table>>(table: Table): Table {
  return table;
}

export const decisions = byCommandType({
  CreateOrganization: createOrganization,
  AssignPlan: onExisting(assignPlan),
  PurchaseAddOn: onExisting(purchaseAddOn),
  CancelAddOn: onExisting(cancelAddOn),
  EnableChorus: onExisting(enableChorus),
  DisableChorus: onExisting(disableChorus),
  ConfigureLimits: onExisting(configureLimits),
  AddMember: onExisting(addMember),
  RemoveMember: onExisting(removeMember),
  EraseMember: onExisting(eraseMember),
  ResendInvitation: onExisting(resendInvitation),
  ChangeMemberRole: onExisting(changeMemberRole),
  AddSite: onExisting(addSite),
  RemoveSite: onExisting(removeSite),
  AddQualityAssuranceDomain: onExisting(addQualityAssuranceDomain),
  RemoveQualityAssuranceDomain: onExisting(removeQualityAssuranceDomain),
  AddWebAnalyticsDomain: onExisting(addWebAnalyticsDomain),
  RemoveWebAnalyticsDomain: onExisting(removeWebAnalyticsDomain),
  ConfigureSso: onExisting(configureSso),
  ConfigureSamlSso: onExisting(configureSamlSso),
  DisableSso: onExisting(disableSso),
  RecordSsoDomainCheck: onExisting(recordSsoDomainCheck),
  RecordTrafficThreshold: onExisting(recordTrafficThreshold),
  SyncSubscription: onExisting(syncSubscription),
  NoteTrialEnding: onExisting(noteTrialEnding),
  SetTwoStepSignInPolicy: onExisting(setTwoStepSignInPolicy),
  SetDomainJoin: onExisting(setDomainJoin),
  RecordAutomaticJoinRefusal: onExisting(recordAutomaticJoinRefusal),
});

type Decisions = typeof decisions;

export type OrganizationCommand = { [Type in keyof Decisions]: Parameters<Decisions[Type]>[0] }[keyof Decisions];

/** Pure: no clock, no ids, no I/O. */
export function decide(
  command: OrganizationCommand,
  state: OrganizationState,
  context: DecideContext,
): OrganizationEvent[] {
  // Commands may be built from JSON: a missing data object or an unknown type is the caller's error, not a crash.
  if (typeof command.data !== 'object' || command.data === null) {
    throw new DomainError('VALIDATION_FAILED', 'The command has no data.', { field: 'data', reason: 'required' });
  }
  if (!Object.hasOwn(decisions, command.type)) {
    throw new DomainError('VALIDATION_FAILED', 'Unknown command type.', { field: 'type', reason: 'not_allowed' });
  }
  if (command.type !== 'CreateOrganization' && state.exists) refuseUnlessAllowed(command, state, context.requester);
  // TypeScript cannot follow the table's type pairing through a union, hence the one widening here.
  const decision = decisions[command.type] as Decision<OrganizationCommand>;
  return decision(command, state, context);
}

// Roles are checked on the state the decision is made on, so no race between reading a role and using it can
// let an admin take an organization over.

export type RoleCheckedCommand = { type: OrganizationCommand['type']; data?: object };

/** Unknown values pass: validation refuses them. */
function rolesConcerned({ type, data: about }: RoleCheckedCommand, state: ExistingOrganization): readonly unknown[] {
  const data = about as { userId?: unknown; role?: unknown } | undefined;
  const member = typeof data?.userId === 'string' ? state.members.get(data.userId) : undefined;
  switch (type) {
    case 'AddMember':
      return [data?.role];
    case 'RemoveMember':
    case 'ResendInvitation':
      return member === undefined ? [] : [member.role];
    case 'ChangeMemberRole':
      return member === undefined ? [data?.role] : [member.role, data?.role];
    default:
      return [];
  }
}

const OWNERS_ONLY: readonly OrganizationCommand['type'][] = [
  'ConfigureSso',
  'ConfigureSamlSso',
  'DisableSso',
  'RecordSsoDomainCheck',
  'SetDomainJoin',
];
/** An erasure is asked by the person or an operator, never decided by an organization's managers. */
const OPERATORS_ONLY: readonly OrganizationCommand['type'][] = ['EraseMember'];

/** Also asked before outside work a refused requester must not cause (a mail, a provider discovery, a DNS query). */
export function refuseUnlessAllowed(
  command: RoleCheckedCommand,
  state: ExistingOrganization,
  requester: Requester,
): void {
  if (requester.kind === 'operator') return;
  if (OPERATORS_ONLY.includes(command.type))
    throw new DomainError('FORBIDDEN', 'Only an erasure erases a member.', { requires: 'operator' });
  const role: MemberRole | undefined = state.members.get(requester.userId)?.role;
  if (role === undefined || !MANAGING_ROLES.includes(role)) {
    throw new DomainError('FORBIDDEN', 'Only owners and admins change the organization.', {
      requires: 'owner-or-admin',
    });
  }
  if (role !== 'owner' && OWNERS_ONLY.includes(command.type)) {
    throw new DomainError('FORBIDDEN', 'Only an owner can configure single sign-on.', { requires: 'owner' });
  }
  if (role !== 'owner' && rolesConcerned(command, state).includes('owner')) {
    throw new DomainError('FORBIDDEN', 'Only an owner can add, remove, promote or demote an owner.', {
      requires: 'owner',
    });
  }
}
