import { chorusOnForPaidPlan } from '../../billing/paid-chorus-plan.js';
import { withItem } from '../../billing/subscription.js';
import type { DecideContext } from '../decide-context.js';
import type { ExistingOrganization } from '../state.js';
import { findPlan } from '../../plans/find-plan.js';
import {
  CHORUS_PLANS,
  CLASSIC_PLANS,
  isChorusPlan,
  isClassicPlan,
  LINES,
  SERVICE_LEVELS,
} from '../../plans/plan-lines.js';
import { invalid, requireOneOf } from '../command-validation.js';
import type { Line, PlanName, ServiceLevel } from '../../plans/catalogue.js';
import type { ChorusEnabled } from './enable-chorus.js';

/** paid: bought through billing (the generic billing events), so a Chorus plan also turns Chorus on. */
export type AssignPlan = {
  type: 'AssignPlan';
  data: { line: Line; plan: PlanName; serviceLevel?: ServiceLevel; paid?: boolean };
};

/**
 * subscriptionId: the payment provider's subscription that brought it (absent: assigned by hand or by the generic
 * billing events).
 */
export type PlanAssigned = {
  type: 'PlanAssigned';
  data: { line: Line; plan: PlanName; serviceLevel?: ServiceLevel; subscriptionId?: string };
};

/** Assigning the plan a line already has, with no new service level, changes nothing: no event. */
export function assignPlan(
  command: AssignPlan,
  state: ExistingOrganization,
  { catalogue }: DecideContext,
): (PlanAssigned | ChorusEnabled)[] {
  const line = requireOneOf('line', command.data.line, LINES);
  const plan = requireOneOf('plan', command.data.plan, line === 'classic' ? CLASSIC_PLANS : CHORUS_PLANS);
  const serviceLevel =
    command.data.serviceLevel === undefined
      ? undefined
      : requireOneOf('serviceLevel', command.data.serviceLevel, SERVICE_LEVELS);
  if (!findPlan(catalogue, line, plan))
    throw invalid('plan', 'not_allowed', `The ${line} plan ${plan} is not in the catalogue.`);
  const unchanged = state.plans[line] === plan && (serviceLevel === undefined || serviceLevel === state.serviceLevel);
  if (unchanged) return [];
  const assigned: PlanAssigned = {
    type: 'PlanAssigned',
    data: serviceLevel === undefined ? { line, plan } : { line, plan, serviceLevel },
  };
  return command.data.paid === true ? [assigned, ...chorusOnForPaidPlan(state, [assigned])] : [assigned];
}

/** A plan not of its line changes nothing; a service level stays until a later assignment names another. */
export function withPlanAssigned(state: ExistingOrganization, { data }: PlanAssigned): ExistingOrganization {
  const { line, plan, serviceLevel, subscriptionId } = data;
  const valid = (line === 'classic' && isClassicPlan(plan)) || (line === 'chorus' && isChorusPlan(plan));
  if (!valid) return state;
  const subscription = withItem(state.subscription, subscriptionId, { line, plan });
  return {
    ...state,
    plans: { ...state.plans, [line]: plan },
    serviceLevel: serviceLevel ?? state.serviceLevel,
    ...(subscription && { subscription }),
  };
}
