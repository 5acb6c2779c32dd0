// docs/billing.md, "A paid Chorus plan turns Chorus on": whoever pays for a Chorus plan through billing
// expects it in effect, so billing assigning one to an organization with Chorus off also turns Chorus on,
// recorded as its own ChorusEnabled. Assigned by hand (an operator), a Chorus plan still leaves Chorus as it is.
import type { ChorusEnabled } from '../organization/decisions/enable-chorus.js';
import type { ExistingOrganization } from '../organization/state.js';
import type { ChorusPlan, Line } from '../plans/catalogue.js';

/** PlanAssigned's shape, as far as the rule reads it (assign-plan.ts uses this file: no import back). */
type Assigned = { type: 'PlanAssigned'; data: { line: Line; plan: string } };

const chorusPlanAssigned = (event: { type: string; data?: unknown }): event is Assigned =>
  event.type === 'PlanAssigned' && (event as Assigned).data.line === 'chorus';

/** The ChorusEnabled that billing's decided events call for on `state` (the state they were decided on), or none. */
export function chorusOnForPaidPlan(
  state: ExistingOrganization,
  decided: readonly { type: string; data?: unknown }[],
): ChorusEnabled[] {
  const assigned = decided.filter(chorusPlanAssigned).at(-1);
  if (assigned === undefined || state.chorus.enabled) return [];
  return [{ type: 'ChorusEnabled', data: { paidPlan: assigned.data.plan as ChorusPlan } }];
}
