// evolve: pure and total. It trusts recorded events (decide validated them) but never throws:
// an event it does not know, or one that makes no sense in the current state, leaves the state as it is.
// Each event's fold sits beside the decision that records it; this dispatches on the table in decisions.ts.
import { type Evolver, evolvers, type OrganizationEvent } from './decisions.js';
import { createdOrganization } from './decisions/create-organization.js';
import { initialOrganizationState, type OrganizationState } from './state.js';

// A Map, not the table itself: one hashed look-up per event (the projections fold millions), and a type
// such as `toString` finds nothing rather than Object.prototype's. The table pairs each type with its own
// event's fold; TypeScript cannot follow that pairing through a union, hence the one widening here.
const foldOf: ReadonlyMap<string, Evolver<OrganizationEvent>> = new Map(Object.entries(evolvers) as [string, Evolver<OrganizationEvent>][]);

export function evolve(state: OrganizationState, event: OrganizationEvent): OrganizationState {
  if (!state.exists) {
    return event.type === 'OrganizationCreated' ? createdOrganization(event) : state;
  }
  // Undefined for a type this version does not know (an older reader of a newer stream).
  const fold = foldOf.get(event.type);
  return fold === undefined ? state : fold(state, event);
}

/** The state after `events`, starting from `from` (no organization by default). */
export const foldOrganization = (
  events: readonly OrganizationEvent[],
  from: OrganizationState = initialOrganizationState,
): OrganizationState => events.reduce<OrganizationState>((state, event) => evolve(state, event), from);
