import type { SsoDisabled } from '../events.js';
import type { ExistingOrganization } from '../state.js';

export type DisableSso = { type: 'DisableSso'; data: Record<string, never> };

/** Turning off what is off records nothing. Allowed on any plan: a downgraded organization can still turn it off. */
export const disableSso = (_command: DisableSso, state: ExistingOrganization): SsoDisabled[] => (state.sso === null ? [] : [{ type: 'SsoDisabled', data: {} }]);
