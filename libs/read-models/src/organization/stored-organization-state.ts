import type { OrganizationState } from '#domain';

/**
 * A folded state as the read model stored it. Rows written before a field existed lack it: they get
 * the value the fold starts from (no SSO), so a model is never rebuilt for a new field.
 */
export function storedOrganizationState(json: string): OrganizationState {
  const state = JSON.parse(json) as OrganizationState;
  return state.exists && state.sso === undefined ? { ...state, sso: null } : state;
}
