// The Chorus features in effect: the Chorus plan's, plus add-on and service-level effects, and
// none at all while Chorus is disabled (the second line is then not in use).
import { ADD_ON_EFFECTS, SERVICE_LEVEL_FEATURES } from '../plans/add-on-effects.js';
import { CHORUS_FEATURES, type ChorusFeature, type ChorusFeatures, type PlanCatalogue } from '../plans/catalogue.js';
import { findPlan } from '../plans/find-plan.js';
import { ADD_ONS } from '../plans/plan-lines.js';
import type { ExistingOrganization } from '../organization/state.js';

export const noChorusFeatures = (): ChorusFeatures =>
  Object.fromEntries(CHORUS_FEATURES.map((feature) => [feature, false])) as ChorusFeatures;

export function effectiveChorusFeatures(state: ExistingOrganization, catalogue: PlanCatalogue): ChorusFeatures {
  const features = noChorusFeatures();
  if (!state.chorus.enabled) return features;
  const plan = state.plans.chorus ? findPlan(catalogue, 'chorus', state.plans.chorus) : undefined;
  const planFeatures = plan?.organizationDefaults.chorusFeatures;
  const turnedOn: ChorusFeature[] = [
    ...CHORUS_FEATURES.filter((feature) => planFeatures?.[feature] === true),
    ...ADD_ONS.filter((addOn) => state.addOns[addOn] > 0).flatMap((addOn) => ADD_ON_EFFECTS[addOn].features),
    ...SERVICE_LEVEL_FEATURES[state.serviceLevel],
  ];
  for (const feature of turnedOn) features[feature] = true;
  return features;
}
