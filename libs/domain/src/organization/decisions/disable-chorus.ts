import type { ChorusDisabled } from '../events.js';
import type { ExistingOrganization } from '../state.js';

export function disableChorus(state: ExistingOrganization): ChorusDisabled[] {
  return state.chorus.enabled ? [{ type: 'ChorusDisabled', data: {} }] : [];
}
