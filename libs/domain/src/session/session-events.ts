// Apart from the user's stream, so that resolving a request reads a handful of events, not a sign-in history.
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
    userAgent?: string;
    /** Half open: only the second step's calls take this session until it is passed. */
    awaiting?: SecondStepAwaited;
    secondStep?: SecondStepMethod;
  };
};
export type SessionRefreshed = { type: 'SessionRefreshed'; data: { at: string } };
export type SessionEndReason =
  'signed-out' | 'password-reset' | 'password-changed' | 'revoked' | 'second-step-passed' | 'erased';
export type SessionEnded = { type: 'SessionEnded'; data: { reason: SessionEndReason; at: string } };

export type SessionEvent = SessionStarted | SessionRefreshed | SessionEnded;

export const sessionStreamPrefix = 'session-';
export const sessionStream = (sessionId: string): string => `${sessionStreamPrefix}${sessionId}`;
