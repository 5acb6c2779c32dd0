import type { ChorusEnabled } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { optionalBoolean } from '../command-validation.js';

export type EnableChorus = { type: 'EnableChorus'; data: { parallelUse?: boolean } };

/** Enabling again with another parallelUse setting changes that setting; with the same one it changes nothing. */
export function enableChorus(command: EnableChorus, state: ExistingOrganization): ChorusEnabled[] {
  const parallelUse = optionalBoolean('parallelUse', command.data.parallelUse);
  if (state.chorus.enabled && state.chorus.parallelUse === (parallelUse ?? null)) return [];
  return [{ type: 'ChorusEnabled', data: parallelUse === undefined ? {} : { parallelUse } }];
}
