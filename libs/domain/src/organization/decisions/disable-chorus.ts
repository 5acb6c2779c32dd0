import type { ExistingOrganization } from '../state.js';

export type DisableChorus = { type: 'DisableChorus'; data: Record<string, never> };

export type ChorusDisabled = { type: 'ChorusDisabled'; data: Record<string, never> };

export function disableChorus(_command: DisableChorus, state: ExistingOrganization): ChorusDisabled[] {
  return state.chorus.enabled ? [{ type: 'ChorusDisabled', data: {} }] : [];
}

/** Off, with its parallel-use setting as it was. */
export const withChorusDisabled = (state: ExistingOrganization, _event: ChorusDisabled): ExistingOrganization => ({
  ...state,
  chorus: { ...state.chorus, enabled: false },
});
