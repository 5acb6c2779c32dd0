// Add-on units bought and cancelled fold alike: only the sign of the change differs.
import { withItem } from '../../billing/subscription.js';
import type { AddOn } from '../../plans/catalogue.js';
import { ADD_ONS } from '../../plans/plan-lines.js';
import type { ExistingOrganization } from '../state.js';

/** The active units after a change of `delta`, never below 0; an add-on not in the catalogue changes nothing. */
export function withAddOnUnits(
  state: ExistingOrganization,
  { addOn, subscriptionId }: { addOn: AddOn; subscriptionId?: string },
  delta: number,
): ExistingOrganization {
  if (!ADD_ONS.includes(addOn)) return state;
  const subscription = withItem(state.subscription, subscriptionId, { addOn, delta });
  return {
    ...state,
    addOns: { ...state.addOns, [addOn]: Math.max(0, state.addOns[addOn] + delta) },
    ...(subscription && { subscription }),
  };
}
