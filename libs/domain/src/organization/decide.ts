// decide: what a command means for an organization, as events, or a DomainError. Pure: no clock, no ids, no I/O.
// Each command's decision is in decisions/<command>.ts, listed by type in decisions.ts.
import { DomainError } from '../errors.js';
import type { OrganizationCommand } from './commands.js';
import type { DecideContext } from './decide-context.js';
import { type Decision, decisions } from './decisions.js';
import type { OrganizationEvent } from './events.js';
import type { OrganizationState } from './state.js';
import { authorize } from './authorize.js';

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
