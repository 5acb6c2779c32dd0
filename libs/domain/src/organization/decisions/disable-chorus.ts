import type { ChorusDisabled } from '../events.js';
import type { ExistingOrganization } from '../state.js';

export type DisableChorus = { type: 'DisableChorus'; data: Record<string, never> };

export function disableChorus(_command: DisableChorus, state: ExistingOrganization): ChorusDisabled[] {
  return state.chorus.enabled ? [{ type: 'ChorusDisabled', data: {} }] : [];
}
