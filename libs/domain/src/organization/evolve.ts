// Total: never throws; an event it does not know, or that makes no sense in the current state, changes nothing.
import { type Evolver, evolvers, type OrganizationEvent } from './decisions.js';
import { withMembersAdded, type MemberAdded } from './decisions/add-member.js';
import { createdOrganization } from './decisions/create-organization.js';
import { initialOrganizationState, type OrganizationState } from './state.js';

// A Map, not the table: a type such as `toString` finds nothing rather than Object.prototype's. TypeScript
// cannot follow the table's type pairing through a union, hence the one widening here.
const foldOf: ReadonlyMap<string, Evolver<OrganizationEvent>> = new Map(
  Object.entries(evolvers) as [string, Evolver<OrganizationEvent>][],
);

export function evolve(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  if (!state.exists) {
    return event.type === 'OrganizationCreated' ? createdOrganization(event) : state;
  }
  const fold = foldOf.get(event.type);
  return fold === undefined ? state : fold(state, event);
}

/**
 * The state after `events`, exactly as `evolve` one event at a time gives it. A run of members added (a directory's
 * provisioning) goes into the member map in one batch, about ten times faster: History folds whole histories.
 */
export function foldOrganization(
  events: readonly OrganizationEvent[],
  from: OrganizationState = initialOrganizationState,
): OrganizationState {
  let state = from;
  for (let index = 0; index < events.length;) {
    const run = state.exists ? (runOfType(events, index, 'MemberAdded') as MemberAdded[]) : [];
    if (state.exists && run.length > 1) {
      state = withMembersAdded(state, run);
      index += run.length;
    } else {
      state = evolve(state, events[index] as OrganizationEvent);
      index += 1;
    }
  }
  return state;
}

/** The events from `start` on while they are of `type`: a run that folds in one step. */
export function runOfType<Event extends { readonly type: string }>(
  events: readonly Event[],
  start: number,
  type: string,
): Event[] {
  let end = start;
  while (end < events.length && events[end]?.type === type) end += 1;
  return events.slice(start, end);
}
