// A user's state: the fold of its stream, nothing stored beside it.
import { accountThrottlePolicy, noFailures, recordFailure, type FailureStreak } from '../sign-in/failure-streak.js';
import type { UserEvent } from './events.js';

export type PendingReset = { tokenHash: string; expiresAt: string };
export type OpenSession = { sessionId: string; absoluteExpiresAt: string };

export type User = {
  status: 'registered';
  userId: string;
  email: string;
  username: string | null;
  passwordHash: string | null;
  googleSubject: string | null;
  pendingResets: PendingReset[];
  /** When reset links were last sent (the newest few), for the per-address mail limit. */
  resetRequestTimes: string[];
  failedSignIns: FailureStreak;
  /** Sessions started and not signed out or ended by a reset (they may have timed out since). */
  openSessions: OpenSession[];
};

export type UserState = { status: 'unregistered' } | User;

export const initialUserState = (): UserState => ({ status: 'unregistered' });

/** Reset mails one address may receive per hour (the forgot form answers the same either way). */
export const resetMailsPerHour = 3;

const stillValidAt = (at: string) => (expiry: string) => new Date(expiry).getTime() > new Date(at).getTime();

export function evolve(state: UserState, event: UserEvent): UserState {
  if (event.type === 'UserRegistered') {
    return {
      status: 'registered',
      userId: event.data.userId,
      email: event.data.email,
      username: event.data.username ?? null,
      passwordHash: null,
      googleSubject: null,
      pendingResets: [],
      resetRequestTimes: [],
      failedSignIns: noFailures,
      openSessions: [],
    };
  }
  if (state.status === 'unregistered') return state;
  switch (event.type) {
    case 'PasswordSet':
      return { ...state, passwordHash: event.data.passwordHash };
    case 'GoogleAccountLinked':
      return { ...state, googleSubject: event.data.subject };
    case 'PasswordResetRequested': {
      const valid = stillValidAt(event.data.at);
      return {
        ...state,
        pendingResets: [
          ...state.pendingResets.filter((reset) => valid(reset.expiresAt)),
          { tokenHash: event.data.tokenHash, expiresAt: event.data.expiresAt },
        ],
        resetRequestTimes: [...state.resetRequestTimes, event.data.at].slice(-resetMailsPerHour),
      };
    }
    case 'PasswordResetCompleted': {
      const ended = new Set(event.data.endedSessionIds);
      return {
        ...state,
        // A reset spends every outstanding link, not only the one used.
        pendingResets: [],
        failedSignIns: noFailures,
        openSessions: state.openSessions.filter((session) => !ended.has(session.sessionId)),
      };
    }
    case 'PasswordChanged': {
      const ended = new Set(event.data.endedSessionIds);
      return { ...state, openSessions: state.openSessions.filter((session) => !ended.has(session.sessionId)) };
    }
    case 'SignedIn': {
      const valid = stillValidAt(event.data.at);
      return {
        ...state,
        failedSignIns: noFailures,
        openSessions: [
          ...state.openSessions.filter((session) => valid(session.absoluteExpiresAt)),
          { sessionId: event.data.sessionId, absoluteExpiresAt: event.data.absoluteExpiresAt },
        ],
      };
    }
    case 'SignInFailed':
      return {
        ...state,
        failedSignIns: recordFailure(state.failedSignIns, new Date(event.data.at), accountThrottlePolicy),
      };
    case 'SignedOut':
      return {
        ...state,
        openSessions: state.openSessions.filter((session) => session.sessionId !== event.data.sessionId),
      };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}
