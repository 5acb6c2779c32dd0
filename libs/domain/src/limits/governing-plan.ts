// Which plan's limits apply: the Chorus plan while Chorus is enabled and one is assigned, else the
// Classic plan, else none (docs/domain.md, "Which plan governs limits").
import { findPlan } from '../plans/find-plan.js';
import type { PlanCatalogue, PlanSpec } from '../plans/catalogue.js';
import type { ExistingOrganization } from '../organization/state.js';

export function governingPlan(
  state: Pick<ExistingOrganization, 'plans' | 'chorus'>,
  catalogue: PlanCatalogue,
): PlanSpec | undefined {
  const chorusPlan =
    state.chorus.enabled && state.plans.chorus ? findPlan(catalogue, 'chorus', state.plans.chorus) : undefined;
  if (chorusPlan) return chorusPlan;
  return state.plans.classic ? findPlan(catalogue, 'classic', state.plans.classic) : undefined;
}
