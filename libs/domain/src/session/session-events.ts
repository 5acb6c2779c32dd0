// A session's events (stream `session-<id>`, id = SHA-256 of the cookie's secret): kept apart from
// the user's stream so that resolving a request reads a handful of events, not a sign-in history.
import type { SignInMethod } from '../user/events.js';

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
  };
};
/** The session was used; written at most every few minutes so that the idle timeout slides. */
export type SessionRefreshed = { type: 'SessionRefreshed'; data: { at: string } };
export type SessionEndReason = 'signed-out' | 'password-reset' | 'password-changed' | 'revoked';
export type SessionEnded = { type: 'SessionEnded'; data: { reason: SessionEndReason; at: string } };

export type SessionEvent = SessionStarted | SessionRefreshed | SessionEnded;

export const sessionStreamPrefix = 'session-';
export const sessionStream = (sessionId: string): string => `${sessionStreamPrefix}${sessionId}`;
