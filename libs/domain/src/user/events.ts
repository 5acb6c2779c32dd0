// A user's events (stream `user-<id>`): the account and its whole sign-in history, for auditors.
// Unlike the organization's events, these carry `at`: expiry and throttling are decided from it
// with the injected clock, while the store's recordedAt is its own wall clock.
import type { SecondFactorEvent } from './second-factor-events.js';

/** invitation: the session an accepted invitation opens, right after the person chose their password. */
export type SignInMethod = 'password' | 'google' | 'invitation' | 'sso';

export type UserRegistered = {
  type: 'UserRegistered';
  /**
   * email is normalized (trimmed, lower case); username too when given. invited: the id was
   * reserved when a member was added by this address before they registered, and they took it up.
   */
  data: { userId: string; email: string; username?: string; invited?: true; at: string };
};
/** An argon2id hash (PHC string); never the password. */
export type PasswordSet = { type: 'PasswordSet'; data: { passwordHash: string; at: string } };
export type GoogleAccountLinked = {
  type: 'GoogleAccountLinked';
  /** subject: Google's stable account id (`sub`). */
  data: { subject: string; email: string; at: string };
};
/**
 * The user linked their account to an organization's single sign-on while signed in, the organization's
 * provider asserting this very address: from then on that provider may sign them in.
 */
export type SsoAccountLinked = {
  type: 'SsoAccountLinked';
  data: { organizationId: string; issuer: string; subject: string; email: string; at: string };
};
/** Only the SHA-256 of the token is kept: the link in the mail is the sole copy of the token. */
export type PasswordResetRequested = {
  type: 'PasswordResetRequested';
  data: { tokenHash: string; expiresAt: string; at: string };
};
export type PasswordResetCompleted = {
  type: 'PasswordResetCompleted';
  data: { tokenHash: string; endedSessionIds: string[]; at: string };
};
/** The user changed their password, knowing the current one; every other session ended. */
export type PasswordChanged = {
  type: 'PasswordChanged';
  data: { endedSessionIds: string[]; at: string };
};
/** What a half-open session still needs: the second step, or enrolling a first factor (the organization's policy). */
export type SecondStepAwaited = 'second-step' | 'enrolment';
/**
 * sessionId is the SHA-256 of the cookie's secret, so this history holds no usable credential. awaiting: the
 * password was right and the session is half open until the second step (SecondStepPassed).
 */
export type SignedIn = {
  type: 'SignedIn';
  data: { sessionId: string; method: SignInMethod; absoluteExpiresAt: string; awaiting?: SecondStepAwaited; at: string };
};
export type SignInFailedReason = 'wrong-password' | 'no-password';
/**
 * No longer recorded: failed attempts are counted in `sign-in-attempts-account-<userId>` (reserved before
 * the check). Kept for the histories that hold it.
 */
export type SignInFailed = { type: 'SignInFailed'; data: { reason: SignInFailedReason; at: string } };
export type SignedOut = { type: 'SignedOut'; data: { sessionId: string; at: string } };

export type UserEvent =
  | UserRegistered
  | PasswordSet
  | GoogleAccountLinked
  | SsoAccountLinked
  | PasswordResetRequested
  | PasswordResetCompleted
  | PasswordChanged
  | SignedIn
  | SignInFailed
  | SignedOut
  | SecondFactorEvent;

export type UserEventType = UserEvent['type'];

export const userStreamPrefix = 'user-';
export const userStream = (userId: string): string => `${userStreamPrefix}${userId}`;
