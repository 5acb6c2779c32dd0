// decide: what a command means for an organization, as events, or a DomainError. Pure: no clock, no ids, no I/O.
import { DomainError } from '../errors.js';
import type { OrganizationCommand } from './commands.js';
import type { DecideContext } from './decide-context.js';
import type { OrganizationEvent } from './events.js';
import type { ExistingOrganization, OrganizationState } from './state.js';
import { authorize } from './authorize.js';
import { addMember } from './decisions/add-member.js';
import { addQualityAssuranceDomain } from './decisions/add-quality-assurance-domain.js';
import { addSite } from './decisions/add-site.js';
import { addWebAnalyticsDomain } from './decisions/add-web-analytics-domain.js';
import { assignPlan } from './decisions/assign-plan.js';
import { cancelAddOn } from './decisions/cancel-add-on.js';
import { changeMemberRole } from './decisions/change-member-role.js';
import { configureLimits } from './decisions/configure-limits.js';
import { createOrganization } from './decisions/create-organization.js';
import { configureSso } from './decisions/configure-sso.js';
import { disableChorus } from './decisions/disable-chorus.js';
import { disableSso } from './decisions/disable-sso.js';
import { enableChorus } from './decisions/enable-chorus.js';
import { purchaseAddOn } from './decisions/purchase-add-on.js';
import { removeMember } from './decisions/remove-member.js';
import { removeQualityAssuranceDomain } from './decisions/remove-quality-assurance-domain.js';
import { removeSite } from './decisions/remove-site.js';
import { removeWebAnalyticsDomain } from './decisions/remove-web-analytics-domain.js';

/** Every command but CreateOrganization needs the organization to exist. */
function existing(state: OrganizationState): ExistingOrganization {
  if (!state.exists) throw new DomainError('NOT_FOUND', 'The organization does not exist.', { entity: 'organization' });
  return state;
}

export function decide(command: OrganizationCommand, state: OrganizationState, context: DecideContext): OrganizationEvent[] {
  // Commands may be built from JSON: a missing data object is the caller's error, not a crash.
  if (typeof command.data !== 'object' || command.data === null) {
    throw new DomainError('VALIDATION_FAILED', 'The command has no data.', { field: 'data', reason: 'required' });
  }
  if (command.type !== 'CreateOrganization' && state.exists) authorize(command, state, context.requester);
  switch (command.type) {
    case 'CreateOrganization':
      return createOrganization(command, state);
    case 'AssignPlan':
      return assignPlan(command, existing(state), context);
    case 'PurchaseAddOn':
      existing(state);
      return purchaseAddOn(command);
    case 'CancelAddOn':
      return cancelAddOn(command, existing(state));
    case 'EnableChorus':
      return enableChorus(command, existing(state));
    case 'DisableChorus':
      return disableChorus(existing(state));
    case 'ConfigureLimits':
      return configureLimits(command, existing(state));
    case 'AddMember':
      return addMember(command, existing(state), context);
    case 'RemoveMember':
      return removeMember(command, existing(state));
    case 'ChangeMemberRole':
      return changeMemberRole(command, existing(state));
    case 'AddSite':
      return addSite(command, existing(state), context);
    case 'RemoveSite':
      return removeSite(command, existing(state));
    case 'AddQualityAssuranceDomain':
      return addQualityAssuranceDomain(command, existing(state), context);
    case 'RemoveQualityAssuranceDomain':
      return removeQualityAssuranceDomain(command, existing(state));
    case 'AddWebAnalyticsDomain':
      return addWebAnalyticsDomain(command, existing(state), context);
    case 'RemoveWebAnalyticsDomain':
      return removeWebAnalyticsDomain(command, existing(state));
    case 'ConfigureSso':
      return configureSso(command, existing(state), context);
    case 'DisableSso':
      return disableSso(existing(state));
    default: {
      const _exhaustive: never = command;
      throw new DomainError('VALIDATION_FAILED', 'Unknown command type.', { field: 'type', reason: 'not_allowed' });
    }
  }
}
