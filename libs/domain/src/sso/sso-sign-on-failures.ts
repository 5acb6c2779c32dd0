// Anyone can make a sign-on fail, so each hour keeps its first failures in full and the rest as counts: exact
// in number, bounded in storage. Not the organization's stream: a stranger's attempts are not its changes.
import type { Decider } from '../decider.js';

export const ssoSignOnStream = (organizationId: string): string => `sso-sign-on-${organizationId}`;

export type SsoFailureReason =
  | 'not-configured'
  | 'plan'
  /** Sealed with a key no longer in SSO_SECRET_KEYS. */
  | 'secret-unreadable'
  | 'discovery-failed'
  | 'provider-error'
  | 'token-refused'
  /** SAML: the response's signature, issuer, audience, recipient, times or request did not hold. */
  | 'response-refused'
  /** SAML: an assertion accepted before. */
  | 'replay'
  /** SAML: a response no request asked for, while the organization does not allow sign-ins started at the provider. */
  | 'idp-initiated'
  | 'state'
  | 'email-unverified'
  | 'foreign-domain'
  /**
   * Neither created by this organization's SSO nor linked: another provider could otherwise sign into anyone's account.
   */
  | 'account-not-linked'
  | 'link-refused'
  | 'users-limit'
  /** Deactivated or deleted by the organization's directory (SCIM), and not provisioned since. */
  | 'deprovisioned'
  | 'error';

export type SsoSignOnFailed = {
  type: 'SsoSignOnFailed';
  data: { reason: SsoFailureReason; detail: string; email?: string; subject?: string; at: string };
};

/** [from, to), counted by one node beyond those stored in full. */
export type SsoSignOnFailuresCounted = {
  type: 'SsoSignOnFailuresCounted';
  data: { from: string; to: string; total: number; byReason: Partial<Record<SsoFailureReason, number>> };
};

export type SsoSignOnFailureEvent = SsoSignOnFailed | SsoSignOnFailuresCounted;

export const FAILURES_IN_FULL_PER_HOUR = 20;
export const FAILURE_WINDOW_MS = 3_600_000;

export const failureWindowOf = (at: Date): string =>
  new Date(Math.floor(at.getTime() / FAILURE_WINDOW_MS) * FAILURE_WINDOW_MS).toISOString();

export type FailuresInFull = { window: string | null; inFull: number };

export function evolveSsoSignOnFailures(state: FailuresInFull, event: SsoSignOnFailureEvent): FailuresInFull {
  if (event.type !== 'SsoSignOnFailed') return state;
  const window = failureWindowOf(new Date(event.data.at));
  // A late failure of an earlier hour does not reopen the latest hour.
  if (state.window !== null && window < state.window) return state;
  return window === state.window ? { window, inFull: state.inFull + 1 } : { window, inFull: 1 };
}

export type SsoSignOnFailureCommand =
  | { type: 'RecordSsoSignOnFailure'; data: SsoSignOnFailed['data'] }
  | { type: 'CountSsoSignOnFailures'; data: SsoSignOnFailuresCounted['data'] };

export const ssoSignOnFailuresDecider: Decider<FailuresInFull, SsoSignOnFailureCommand, SsoSignOnFailureEvent> = {
  streamOf: ssoSignOnStream,
  initialState: { window: null, inFull: 0 },
  evolve: evolveSsoSignOnFailures,
  decide: (command, state) => {
    if (command.type === 'CountSsoSignOnFailures') return [{ type: 'SsoSignOnFailuresCounted', data: command.data }];
    const window = failureWindowOf(new Date(command.data.at));
    const over =
      state.window !== null &&
      (window < state.window || (window === state.window && state.inFull >= FAILURES_IN_FULL_PER_HOUR));
    return over ? [] : [{ type: 'SsoSignOnFailed', data: command.data }];
  },
};
