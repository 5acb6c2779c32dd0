import type { Line, PlanCatalogue, PlanName, PlanSpec } from './catalogue.js';

export const findPlan = (catalogue: PlanCatalogue, line: Line, plan: PlanName): PlanSpec | undefined =>
  catalogue.plans.find((spec) => spec.line === line && spec.name === plan);
