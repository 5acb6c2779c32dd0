// A session's state and when it is still good (OWASP ASVS 3.3: idle and absolute timeouts).
import type { SecondStepAwaited, SignInMethod } from '../user/events.js';
import type { Decider } from '../decider.js';
import { sessionStream, type SessionEndReason, type SessionEvent, type SessionStarted } from './session-events.js';

export type Session = {
  sessionId: string;
  userId: string;
  method: SignInMethod;
  startedAt: string;
  lastActiveAt: string;
  idleTimeoutSeconds: number;
  absoluteExpiresAt: string;
  /** The User-Agent the session was started from; null when unknown. */
  userAgent: string | null;
  /** Half open until the second step is passed: every page and call but that step treats it as signed out. */
  awaiting: SecondStepAwaited | null;
  ended: SessionEndReason | null;
};

export type SessionState = Session | null;

export function evolveSession(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'SessionStarted':
      return {
        sessionId: event.data.sessionId,
        userId: event.data.userId,
        method: event.data.method,
        startedAt: event.data.at,
        lastActiveAt: event.data.at,
        idleTimeoutSeconds: event.data.idleTimeoutSeconds,
        absoluteExpiresAt: event.data.absoluteExpiresAt,
        userAgent: event.data.userAgent ?? null,
        awaiting: event.data.awaiting ?? null,
        ended: null,
      };
    case 'SessionRefreshed':
      return state === null ? state : { ...state, lastActiveAt: event.data.at };
    case 'SessionEnded':
      return state === null ? state : { ...state, ended: event.data.reason };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export function isLive(session: Session, now: Date): boolean {
  const time = now.getTime();
  return (
    session.ended === null &&
    time < new Date(session.absoluteExpiresAt).getTime() &&
    time < new Date(session.lastActiveAt).getTime() + session.idleTimeoutSeconds * 1000
  );
}

export type SessionCommand =
  | { type: 'StartSession'; data: SessionStarted['data'] }
  | { type: 'EndSession'; data: { reason: SessionEndReason; at: string } }
  | { type: 'RefreshSession'; data: { now: Date; refreshAfterMs: number } };

/**
 * A session's stream, its id the session's: started once, ended once, its activity written at most every
 * `refreshAfterMs`.
 */
export const sessionDecider: Decider<SessionState, SessionCommand, SessionEvent> = {
  streamOf: sessionStream,
  initialState: null,
  evolve: evolveSession,
  decide: (command, session) => {
    switch (command.type) {
      case 'StartSession':
        return session === null ? [{ type: 'SessionStarted', data: command.data }] : [];
      case 'EndSession':
        // Ended once, whoever asks first: of concurrent sign-outs exactly one records it.
        return session === null || session.ended !== null ? [] : [{ type: 'SessionEnded', data: command.data }];
      case 'RefreshSession': {
        const { now, refreshAfterMs } = command.data;
        const due =
          session !== null &&
          isLive(session, now) &&
          now.getTime() - new Date(session.lastActiveAt).getTime() >= refreshAfterMs;
        return due ? [{ type: 'SessionRefreshed', data: { at: now.toISOString() } }] : [];
      }
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  },
};
