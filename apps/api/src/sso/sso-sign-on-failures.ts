// Why an SSO sign-on failed, for the audit trail: `SsoSignOnFailed` in the organization's stream of
// sign-on failures, `sso-sign-on-<organizationId>` (not its own stream: a refused stranger's attempts are
// not changes of the organization, and no one outside it can fill that history). Also logged. Never in
// the URL the browser is sent to, which is always the seed's `/login?error=sso`.
export const ssoSignOnStream = (organizationId: string): string => `sso-sign-on-${organizationId}`;

export type SsoFailureReason =
  /** No SSO configured for the organization, or no such organization. */
  | 'not-configured'
  /** The organization's plan no longer includes SSO. */
  | 'plan'
  /** The client secret was sealed with a key no longer in SSO_SECRET_KEYS. */
  | 'secret-unreadable'
  | 'discovery-failed'
  /** The provider sent the browser back with an error (e.g. access_denied). */
  | 'provider-error'
  /** The code exchange or the id_token failed a check (signature, iss, aud, exp, nonce, PKCE). */
  | 'token-refused'
  /** No cookie, or a state that is not this browser's sign-on (replayed, swapped, expired). */
  | 'state'
  | 'email-unverified'
  /** The address is not in one of the organization's SSO domains (or the domain is another's). */
  | 'foreign-domain'
  /**
   * The address is an existing account that neither this organization's SSO created nor its owner linked
   * to it: another provider could otherwise sign into anyone's account.
   */
  | 'account-not-linked'
  /** A link was asked for, but the browser's session or the address asserted is not the account's. */
  | 'link-refused'
  /** Just-in-time provisioning refused: the users limit, or no plan. */
  | 'users-limit'
  | 'error';

/** One failure in full (`at`: when, by the sign-on's clock), among the first of its hour (sso-sign-on-failure-log.ts). */
export type SsoSignOnFailed = {
  type: 'SsoSignOnFailed';
  data: { reason: SsoFailureReason; detail: string; email?: string; subject?: string; at: string };
};

/**
 * The failures of one hour [from, to) that one node counted beyond those stored in full, by reason: an
 * hour's failures are its SsoSignOnFailed events plus the totals of its SsoSignOnFailuresCounted (one per node).
 */
export type SsoSignOnFailuresCounted = {
  type: 'SsoSignOnFailuresCounted';
  data: { from: string; to: string; total: number; byReason: Partial<Record<SsoFailureReason, number>> };
};

export class SsoSignOnFailure extends Error {
  constructor(
    readonly reason: SsoFailureReason,
    readonly detail: string,
    readonly who: { email?: string; subject?: string } = {},
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'SsoSignOnFailure';
  }
}
