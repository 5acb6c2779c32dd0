// Every organization command and every organization event, by type: the command's decision and the
// event's fold, both written in decisions/<command>.ts. These two tables are the one list a new command
// and a new event join: the command union (commands.ts) and the event union (below) are read off them.
// `decide` (below: the command's shape, who may ask, then its decision) and `evolve` (evolve.ts) dispatch on them.
import { DomainError } from '../errors.js';
import type { DecideContext } from './decide-context.js';
import { MANAGING_ROLES, type MemberRole } from './member-roles.js';
import type { Requester } from './requester.js';
import type { ExistingOrganization, OrganizationState } from './state.js';
import { addMember, withMemberAdded } from './decisions/add-member.js';
import { addQualityAssuranceDomain, withQualityAssuranceDomainAdded } from './decisions/add-quality-assurance-domain.js';
import { addSite, withSiteAdded } from './decisions/add-site.js';
import { addWebAnalyticsDomain, withWebAnalyticsDomainAdded } from './decisions/add-web-analytics-domain.js';
import { assignPlan, withPlanAssigned } from './decisions/assign-plan.js';
import { cancelAddOn, withAddOnCancelled } from './decisions/cancel-add-on.js';
import { changeMemberRole, withMemberRoleChanged } from './decisions/change-member-role.js';
import { configureLimits, withLimitsConfigured } from './decisions/configure-limits.js';
import { configureSso, withSsoConfigured, withSsoDomainPending } from './decisions/configure-sso.js';
import { createOrganization, withOrganizationCreated } from './decisions/create-organization.js';
import { disableChorus, withChorusDisabled } from './decisions/disable-chorus.js';
import { disableSso, withSsoDisabled } from './decisions/disable-sso.js';
import { enableChorus, withChorusEnabled } from './decisions/enable-chorus.js';
import { noteTrialEnding, withSubscriptionTrialEnding } from './decisions/note-trial-ending.js';
import { purchaseAddOn, withAddOnPurchased } from './decisions/purchase-add-on.js';
import { recordSsoDomainCheck, withSsoDomainRecordMissing, withSsoDomainUnverified, withSsoDomainVerified } from './decisions/record-sso-domain-check.js';
import { recordTrafficThreshold, withTrafficThresholdReached } from './decisions/record-traffic-threshold.js';
import { removeMember, withMemberRemoved } from './decisions/remove-member.js';
import { removeQualityAssuranceDomain, withQualityAssuranceDomainRemoved } from './decisions/remove-quality-assurance-domain.js';
import { removeSite, withSiteRemoved } from './decisions/remove-site.js';
import { removeWebAnalyticsDomain, withWebAnalyticsDomainRemoved } from './decisions/remove-web-analytics-domain.js';
import { resendInvitation, withInvitationResent } from './decisions/resend-invitation.js';
import { setTwoStepSignInPolicy, withTwoStepSignInPolicySet } from './decisions/set-two-step-sign-in-policy.js';
import { syncSubscription, withPlanEnded, withStripeCustomerBound, withSubscriptionChanged } from './decisions/sync-subscription.js';

/** An event's effect on an organization that exists: the state after it (the same object when nothing changes). */
export type Evolver<Event> = (state: ExistingOrganization, event: Event) => ExistingOrganization;

/** The table's keys are its events' types: a key that is not its event's `type` does not compile. */
type KeyedByEventType<Table> = {
  [Type in keyof Table]: Table[Type] extends Evolver<infer Event> ? ([Event] extends [{ type: Type }] ? Table[Type] : never) : never;
};

function byEventType<Table extends KeyedByEventType<Table>>(table: Table): Table {
  return table;
}

/**
 * Every organization event, by its type, with its fold. OrganizationCreated's fold is for an organization
 * that exists already; evolve creates one from it (decisions/create-organization.ts). The order is the one
 * readers list the types in (the audit explorer's filter).
 */
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
  MemberRoleChanged: withMemberRoleChanged,
  InvitationResent: withInvitationResent,
  SiteAdded: withSiteAdded,
  SiteRemoved: withSiteRemoved,
  QualityAssuranceDomainAdded: withQualityAssuranceDomainAdded,
  QualityAssuranceDomainRemoved: withQualityAssuranceDomainRemoved,
  WebAnalyticsDomainAdded: withWebAnalyticsDomainAdded,
  WebAnalyticsDomainRemoved: withWebAnalyticsDomainRemoved,
  SsoConfigured: withSsoConfigured,
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
});

type Evolvers = typeof evolvers;

/** The organization's events (stream `organization-<id>`): the only source of its state. */
export type OrganizationEvent = { [Type in keyof Evolvers]: Parameters<Evolvers[Type]>[1] }[keyof Evolvers];
export type OrganizationEventType = OrganizationEvent['type'];
/** One event by its type, e.g. `OrganizationEventOf<'MemberAdded'>`. */
export type OrganizationEventOf<Type extends OrganizationEventType> = Extract<OrganizationEvent, { type: Type }>;

/** Every type evolve folds, for readers that must refuse any other. */
export const ORGANIZATION_EVENT_TYPES = Object.keys(evolvers) as readonly OrganizationEventType[];

/** A decision records only events of the table above: one with no fold there does not compile. */
export type Decision<C> = (command: C, state: OrganizationState, context: DecideContext) => OrganizationEvent[];

/** Every command but CreateOrganization needs the organization to exist. */
function existing(state: OrganizationState): ExistingOrganization {
  if (!state.exists) throw new DomainError('NOT_FOUND', 'The organization does not exist.', { entity: 'organization' });
  return state;
}

/** A decision about an organization that exists (NOT_FOUND otherwise). */
function onExisting<C>(decision: (command: C, state: ExistingOrganization, context: DecideContext) => OrganizationEvent[]): Decision<C> {
  return (command, state, context) => decision(command, existing(state), context);
}

/** The table's keys are its commands' types: a key that is not its command's `type` does not compile. */
type KeyedByCommandType<Table> = {
  [Type in keyof Table]: Table[Type] extends (command: infer Command, ...rest: never[]) => OrganizationEvent[]
    ? Command extends { type: Type } ? Table[Type] : never
    : never;
};

function byCommandType<Table extends KeyedByCommandType<Table>>(table: Table): Table {
  return table;
}

/** Every organization command, by its type, with the decision that answers it. */
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
  ResendInvitation: onExisting(resendInvitation),
  ChangeMemberRole: onExisting(changeMemberRole),
  AddSite: onExisting(addSite),
  RemoveSite: onExisting(removeSite),
  AddQualityAssuranceDomain: onExisting(addQualityAssuranceDomain),
  RemoveQualityAssuranceDomain: onExisting(removeQualityAssuranceDomain),
  AddWebAnalyticsDomain: onExisting(addWebAnalyticsDomain),
  RemoveWebAnalyticsDomain: onExisting(removeWebAnalyticsDomain),
  ConfigureSso: onExisting(configureSso),
  DisableSso: onExisting(disableSso),
  RecordSsoDomainCheck: onExisting(recordSsoDomainCheck),
  RecordTrafficThreshold: onExisting(recordTrafficThreshold),
  SyncSubscription: onExisting(syncSubscription),
  NoteTrialEnding: onExisting(noteTrialEnding),
  SetTwoStepSignInPolicy: onExisting(setTwoStepSignInPolicy),
});

type Decisions = typeof decisions;

/** What callers ask of an organization (commands.ts names it for the rest of the code). */
export type OrganizationCommand = { [Type in keyof Decisions]: Parameters<Decisions[Type]>[0] }[keyof Decisions];

/** What a command means for an organization, as events, or a DomainError. Pure: no clock, no ids, no I/O. */
export function decide(command: OrganizationCommand, state: OrganizationState, context: DecideContext): OrganizationEvent[] {
  // Commands may be built from JSON: a missing data object or an unknown type is the caller's error, not a crash.
  if (typeof command.data !== 'object' || command.data === null) {
    throw new DomainError('VALIDATION_FAILED', 'The command has no data.', { field: 'data', reason: 'required' });
  }
  if (!Object.hasOwn(decisions, command.type)) {
    throw new DomainError('VALIDATION_FAILED', 'Unknown command type.', { field: 'type', reason: 'not_allowed' });
  }
  if (command.type !== 'CreateOrganization' && state.exists) authorize(command, state, context.requester);
  // The table pairs each type with its own command's decision; TypeScript cannot follow that pairing
  // through a union, hence the one widening here.
  const decision = decisions[command.type] as Decision<OrganizationCommand>;
  return decision(command, state, context);
}

// Who may decide (docs/domain.md, Members and roles): only owners add, remove, promote or demote owners;
// owners and admins manage everyone else; auditors change nothing. Checked on the state the decision is
// made on, so no race between reading a role and using it can let an admin take an organization over.

/** The roles of the members a command adds, removes or changes (unknown values pass: validation refuses them). */
function rolesConcerned(command: OrganizationCommand, state: ExistingOrganization): readonly unknown[] {
  switch (command.type) {
    case 'AddMember':
      return [command.data.role];
    case 'RemoveMember':
    case 'ResendInvitation': {
      const member = state.members.find((candidate) => candidate.userId === command.data.userId);
      return member === undefined ? [] : [member.role];
    }
    case 'ChangeMemberRole': {
      // Promoting to owner and demoting an owner both concern owners.
      const member = state.members.find((candidate) => candidate.userId === command.data.userId);
      return member === undefined ? [command.data.role] : [member.role, command.data.role];
    }
    default:
      return [];
  }
}

/** Who signs the organization's people in is the owners' to decide, like who owns it. */
const OWNERS_ONLY: readonly OrganizationCommand['type'][] = ['ConfigureSso', 'DisableSso', 'RecordSsoDomainCheck'];

function authorize(command: OrganizationCommand, state: ExistingOrganization, requester: Requester): void {
  if (requester.kind === 'operator') return;
  const role: MemberRole | undefined = state.members.find((member) => member.userId === requester.userId)?.role;
  if (role === undefined || !MANAGING_ROLES.includes(role)) {
    throw new DomainError('FORBIDDEN', 'Only owners and admins change the organization.', { requires: 'owner-or-admin' });
  }
  if (role !== 'owner' && OWNERS_ONLY.includes(command.type)) {
    throw new DomainError('FORBIDDEN', 'Only an owner can configure single sign-on.', { requires: 'owner' });
  }
  if (role !== 'owner' && rolesConcerned(command, state).includes('owner')) {
    throw new DomainError('FORBIDDEN', 'Only an owner can add, remove, promote or demote an owner.', { requires: 'owner' });
  }
}
