// Whether a login name may use a password at all: asked by the password sign-in and reset, answered by
// whichever module decides it (single sign-on's enforcement), so that sign-in depends on no such module.

export const PASSWORD_GATE = Symbol('PASSWORD_GATE');

/** Where an organization's single sign-on starts (`/auth/sso/:orgId`), then goes on to `redirect` when given. */
export const ssoSignOnPath = (organizationId: string, redirect?: string): string =>
  `/auth/sso/${encodeURIComponent(organizationId)}${redirect === undefined ? '' : `?redirect=${encodeURIComponent(redirect)}`}`;

export interface PasswordGate {
  /** Whether this login name (an address, or a username whose account has one) must sign in some other way. */
  requiresSso(loginName: string): Promise<boolean>;
  /** The organization whose single sign-on this address must use, if one enforces it for the address. */
  enforcingOrganizationOf(email: string): Promise<string | undefined>;
  /** The usual refusal of POST /login, after as much work as a wrong password costs, so it cannot be told apart. */
  refusePassword(password: string): Promise<never>;
}
