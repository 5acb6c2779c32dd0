import type { ExistingOrganization } from '../state.js';
import { optionalBoolean } from '../command-validation.js';
import type { ChorusPlan } from '../../plans/catalogue.js';

export type EnableChorus = { type: 'EnableChorus'; data: { parallelUse?: boolean } };

/** paidPlan: billing turned Chorus on because it assigned this paid Chorus plan (billing/paid-chorus-plan.ts). */
export type ChorusEnabled = { type: 'ChorusEnabled'; data: { parallelUse?: boolean; paidPlan?: ChorusPlan } };

/** Enabling again with another parallelUse setting changes that setting; with the same one it changes nothing. */
export function enableChorus(command: EnableChorus, state: ExistingOrganization): ChorusEnabled[] {
  const parallelUse = optionalBoolean('parallelUse', command.data.parallelUse);
  if (state.chorus.enabled && state.chorus.parallelUse === (parallelUse ?? null)) return [];
  return [{ type: 'ChorusEnabled', data: parallelUse === undefined ? {} : { parallelUse } }];
}

/** No parallel-use setting in the event: none in the state either (null), whatever it was before. */
export const withChorusEnabled = (state: ExistingOrganization, { data }: ChorusEnabled): ExistingOrganization => ({
  ...state,
  chorus: { enabled: true, parallelUse: data.parallelUse ?? null },
});
