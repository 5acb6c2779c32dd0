// Every organization command, by its type, with the decision that answers it: the one list a new
// command joins. The command union (commands.ts) is read off this table, and `decide` dispatches on it.
import { DomainError } from '../errors.js';
import type { DecideContext } from './decide-context.js';
import type { OrganizationEvent } from './events.js';
import type { ExistingOrganization, OrganizationState } from './state.js';
import { addMember } from './decisions/add-member.js';
import { addQualityAssuranceDomain } from './decisions/add-quality-assurance-domain.js';
import { addSite } from './decisions/add-site.js';
import { addWebAnalyticsDomain } from './decisions/add-web-analytics-domain.js';
import { assignPlan } from './decisions/assign-plan.js';
import { cancelAddOn } from './decisions/cancel-add-on.js';
import { changeMemberRole } from './decisions/change-member-role.js';
import { configureLimits } from './decisions/configure-limits.js';
import { configureSso } from './decisions/configure-sso.js';
import { createOrganization } from './decisions/create-organization.js';
import { disableChorus } from './decisions/disable-chorus.js';
import { disableSso } from './decisions/disable-sso.js';
import { enableChorus } from './decisions/enable-chorus.js';
import { purchaseAddOn } from './decisions/purchase-add-on.js';
import { removeMember } from './decisions/remove-member.js';
import { resendInvitation } from './decisions/resend-invitation.js';
import { removeQualityAssuranceDomain } from './decisions/remove-quality-assurance-domain.js';
import { removeSite } from './decisions/remove-site.js';
import { removeWebAnalyticsDomain } from './decisions/remove-web-analytics-domain.js';
import { recordSsoDomainCheck } from './decisions/record-sso-domain-check.js';
import { recordTrafficThreshold } from './decisions/record-traffic-threshold.js';
import { noteTrialEnding } from './decisions/note-trial-ending.js';
import { syncSubscription } from './decisions/sync-subscription.js';
import { setTwoStepSignInPolicy } from './decisions/set-two-step-sign-in-policy.js';

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
