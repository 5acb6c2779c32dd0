import type { PlanCatalogue } from '../plans/catalogue.js';
import type { Requester } from './requester.js';

/** What decide needs besides the command and the state. No clock and no ids: those stay outside the domain. */
export type DecideContext = { catalogue: PlanCatalogue; requester: Requester };
