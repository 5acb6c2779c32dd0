// Who asks for a decision. A member (a signed-in user) is held to the organization's roles, checked on
// the very state the decision is made on, so a role changed a moment ago already counts. Operators (API
// keys with a write scope, the command line, the billing integration) are bound by their scopes outside.
export type Requester = { readonly kind: 'member'; readonly userId: string } | { readonly kind: 'operator' };

export const operator: Requester = Object.freeze({ kind: 'operator' });

export const memberRequester = (userId: string): Requester => ({ kind: 'member', userId });
