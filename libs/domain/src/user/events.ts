// Unlike the organization's events, these carry `at`: expiry and throttling are decided from the injected
// clock, not the store's wall clock.
import type { SecondFactorEvent } from './second-factor-events.js';

export type SignInMethod = 'password' | 'google' | 'invitation' | 'sso';

export type UserRegistered = {
  type: 'UserRegistered';
  data: { userId: string; email: string; username?: string; invited?: true; at: string };
};
export type PasswordSet = { type: 'PasswordSet'; data: { passwordHash: string; at: string } };
export type GoogleAccountLinked = {
  type: 'GoogleAccountLinked';
  data: { subject: string; email: string; at: string };
};
export type SsoAccountLinked = {
  type: 'SsoAccountLinked';
  data: { organizationId: string; issuer: string; subject: string; email: string; at: string };
};
export type PasswordResetRequested = {
  type: 'PasswordResetRequested';
  data: { tokenHash: string; expiresAt: string; at: string };
};
export type PasswordResetCompleted = {
  type: 'PasswordResetCompleted';
  data: { tokenHash: string; endedSessionIds: string[]; at: string };
};
export type PasswordChanged = {
  type: 'PasswordChanged';
  data: { endedSessionIds: string[]; at: string };
};
export type SecondStepAwaited = 'second-step' | 'enrolment';
/** sessionId is a digest of the cookie's secret, so this history holds no usable credential. */
export type SignedIn = {
  type: 'SignedIn';
  data: {
    sessionId: string;
    method: SignInMethod;
    absoluteExpiresAt: string;
    awaiting?: SecondStepAwaited;
    at: string;
  };
};
export type SignInFailedReason = 'wrong-password' | 'no-password';
/** No longer recorded; kept for the histories that hold it. */
export type SignInFailed = { type: 'SignInFailed'; data: { reason: SignInFailedReason; at: string } };
/** `revoked`: ended from another session (the account's session list), not by signing out of it. */
export type SignedOut = { type: 'SignedOut'; data: { sessionId: string; revoked?: true; at: string } };
/** The person's key is deleted next: what it sealed reads as erased from then on. No personal data. */
export type PersonalDataErased = {
  type: 'PersonalDataErased';
  data: { userId: string; endedSessionIds: string[]; at: string };
};

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
  | PersonalDataErased
  | SecondFactorEvent;

export type UserEventType = UserEvent['type'];

export const userStreamPrefix = 'user-';
export const userStream = (userId: string): string => `${userStreamPrefix}${userId}`;
