// Which plans belong to which line, and the other closed vocabularies of the catalogue (seed section 4).
import type { AddOn, ChorusPlan, ClassicPlan, Line, PlanName, ServiceLevel } from './catalogue.js';

export const LINES: readonly Line[] = ['classic', 'chorus'];
/** Lowest tier first. */
export const CLASSIC_PLANS: readonly ClassicPlan[] = ['essential', 'professional', 'enterprise'];
/** Lowest tier first: light sits below solo (less traffic, same hard limits). */
export const CHORUS_PLANS: readonly ChorusPlan[] = ['light', 'solo', 'teams', 'enterprise'];
export const SERVICE_LEVELS: readonly ServiceLevel[] = ['standard', 'assisted', 'turnkey'];
export const ADD_ONS: readonly AddOn[] = [
  'additionalContentSection',
  'additionalUser',
  'qualityAssurance',
  'webAnalytics',
  'feedback',
];

export const isClassicPlan = (plan: unknown): plan is ClassicPlan => CLASSIC_PLANS.includes(plan as ClassicPlan);
export const isChorusPlan = (plan: unknown): plan is ChorusPlan => CHORUS_PLANS.includes(plan as ChorusPlan);

export const isPlanOfLine = (line: Line, plan: unknown): plan is PlanName =>
  line === 'classic' ? isClassicPlan(plan) : line === 'chorus' && isChorusPlan(plan);
