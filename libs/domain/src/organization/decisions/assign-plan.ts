import type { DecideContext } from '../decide-context.js';
import type { PlanAssigned } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { findPlan } from '../../plans/find-plan.js';
import { CHORUS_PLANS, CLASSIC_PLANS, LINES, SERVICE_LEVELS } from '../../plans/plan-lines.js';
import { invalid, requireOneOf } from '../command-validation.js';
import type { Line, PlanName, ServiceLevel } from '../../plans/catalogue.js';

export type AssignPlan = { type: 'AssignPlan'; data: { line: Line; plan: PlanName; serviceLevel?: ServiceLevel } };

/** Assigning the plan a line already has, with no new service level, changes nothing: no event. */
export function assignPlan(command: AssignPlan, state: ExistingOrganization, { catalogue }: DecideContext): PlanAssigned[] {
  const line = requireOneOf('line', command.data.line, LINES);
  const plan = requireOneOf('plan', command.data.plan, line === 'classic' ? CLASSIC_PLANS : CHORUS_PLANS);
  const serviceLevel = command.data.serviceLevel === undefined ? undefined : requireOneOf('serviceLevel', command.data.serviceLevel, SERVICE_LEVELS);
  if (!findPlan(catalogue, line, plan)) throw invalid('plan', 'not_allowed', `The ${line} plan ${plan} is not in the catalogue.`);
  const unchanged = state.plans[line] === plan && (serviceLevel === undefined || serviceLevel === state.serviceLevel);
  if (unchanged) return [];
  return [{ type: 'PlanAssigned', data: serviceLevel === undefined ? { line, plan } : { line, plan, serviceLevel } }];
}
