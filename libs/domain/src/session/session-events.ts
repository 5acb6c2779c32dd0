// A session's events (stream `session-<id>`, id = SHA-256 of the cookie's secret): kept apart from
// the user's stream so that resolving a request reads a handful of events, not a sign-in history.
import type { SecondStepAwaited, SignInMethod } from '../user/events.js';
import type { SecondStepMethod } from '../user/second-factor-events.js';

export type SessionStarted = {
  type: 'SessionStarted';
  data: {
    sessionId: string;
    userId: string;
    method: SignInMethod;
    at: string;
    idleTimeoutSeconds: number;
    absoluteExpiresAt: string;
    /** The browser's User-Agent header (at most 256 characters), for the account's sessions list; absent in older sessions. */
    userAgent?: string;
    /** Half open: the password was right, and only the second step's calls take this session until it is passed. */
    awaiting?: SecondStepAwaited;
    /** A full session opened by passing the second step: how. */
    secondStep?: SecondStepMethod;
  };
};
/** The session was used; written at most every few minutes so that the idle timeout slides. */
export type SessionRefreshed = { type: 'SessionRefreshed'; data: { at: string } };
/** second-step-passed: the half-open session gave way to a full one under a new id. */
export type SessionEndReason = 'signed-out' | 'password-reset' | 'password-changed' | 'revoked' | 'second-step-passed';
export type SessionEnded = { type: 'SessionEnded'; data: { reason: SessionEndReason; at: string } };

export type SessionEvent = SessionStarted | SessionRefreshed | SessionEnded;

export const sessionStreamPrefix = 'session-';
export const sessionStream = (sessionId: string): string => `${sessionStreamPrefix}${sessionId}`;
