import type { OrganizationState } from '#domain';

/** Rows written before a field existed get the value the fold starts from: a model is never rebuilt for a new field. */
export function storedOrganizationState(json: string): OrganizationState {
  const state = JSON.parse(json) as OrganizationState;
  if (!state.exists) return state;
  if (state.sso === undefined) return { ...state, sso: null };
  if (state.sso === null) return state;
  return {
    ...state,
    sso: {
      ...state.sso,
      verification: state.sso.verification ?? {},
      trustProviderMfa: state.sso.trustProviderMfa ?? false,
    },
  };
}
