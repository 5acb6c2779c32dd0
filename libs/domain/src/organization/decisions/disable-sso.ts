import type { SsoDisabled } from '../events.js';
import type { ExistingOrganization } from '../state.js';

/** Turning off what is off records nothing. Allowed on any plan: a downgraded organization can still turn it off. */
export const disableSso = (state: ExistingOrganization): SsoDisabled[] => (state.sso === null ? [] : [{ type: 'SsoDisabled', data: {} }]);
