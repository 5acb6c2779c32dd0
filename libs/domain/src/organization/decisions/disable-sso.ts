import type { ExistingOrganization } from '../state.js';

export type DisableSso = { type: 'DisableSso'; data: Record<string, never> };

export type SsoDisabled = { type: 'SsoDisabled'; data: Record<string, never> };

/** Turning off what is off records nothing. Allowed on any plan: a downgraded organization can still turn it off. */
export const disableSso = (_command: DisableSso, state: ExistingOrganization): SsoDisabled[] =>
  state.sso === null ? [] : [{ type: 'SsoDisabled', data: {} }];

/** The settings go, and with them every domain's proof: configured again, each domain is proved again. */
export const withSsoDisabled = (state: ExistingOrganization, _event: SsoDisabled): ExistingOrganization => ({
  ...state,
  sso: null,
});
