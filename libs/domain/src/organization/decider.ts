import type { Decider } from '../decider.js';
import type { PlanCatalogue } from '../plans/catalogue.js';
import { decide, type OrganizationCommand } from './decisions.js';
import type { OrganizationEvent } from './events.js';
import { organizationStream } from './events.js';
import { evolve, foldOrganization } from './evolve.js';
import type { Requester } from './requester.js';
import { initialOrganizationState, type OrganizationState } from './state.js';

/** A command with who asks for it: the roles rule holds them to the organization's members (operators pass). */
export type RequestedOrganizationCommand = OrganizationCommand & { readonly requester: Requester };

/** An organization's stream, decided with the plan catalogue Chorus sells. */
export const organizationDecider = (
  catalogue: PlanCatalogue,
): Decider<OrganizationState, RequestedOrganizationCommand, OrganizationEvent> => ({
  streamOf: organizationStream,
  initialState: initialOrganizationState,
  evolve,
  // A directory's thousands of additions go into the member map in one batch: a node's first load of an organization of
  // 10,000 members folds in 23 ms this way, 45-56 ms one event at a time (bench/commands/README.md, members.mjs).
  fold: (state, events) => foldOrganization(events, state),
  decide: (command, state) => decide(command, state, { catalogue, requester: command.requester }),
});
