// Folding an event costs the same whatever the history: sign-ins and sign-outs change nothing here (open
// sessions are read from the stream's recent end when needed).
import type { UserEvent } from './events.js';
import { evolveSecondFactors, noSecondFactors, type SecondFactors } from './second-factors.js';

export type PendingReset = { tokenHash: string; expiresAt: string };
export type OpenSession = { sessionId: string; absoluteExpiresAt: string };

export type User = {
  status: 'registered';
  userId: string;
  email: string;
  username: string | null;
  passwordHash: string | null;
  googleSubject: string | null;
  ssoOrganizationIds: string[];
  pendingResets: PendingReset[];
  /** The newest few, for the per-address mail limit. */
  resetRequestTimes: string[];
  secondFactors: SecondFactors;
};

/** `erased`: the person asked to be forgotten; no account is made again on this stream. */
export type UserState = { status: 'unregistered'; erased?: true } | User;

export const initialUserState = (): UserState => ({ status: 'unregistered' });

export const resetMailsPerHour = 3;

export function evolveUser(state: UserState, event: UserEvent): UserState {
  if (event.type === 'UserRegistered') {
    return {
      status: 'registered',
      userId: event.data.userId,
      email: event.data.email,
      username: event.data.username ?? null,
      passwordHash: null,
      googleSubject: null,
      ssoOrganizationIds: [],
      pendingResets: [],
      resetRequestTimes: [],
      secondFactors: noSecondFactors,
    };
  }
  if (event.type === 'PersonalDataErased') return { status: 'unregistered', erased: true };
  if (state.status === 'unregistered') return state;
  switch (event.type) {
    case 'PasswordSet':
      return { ...state, passwordHash: event.data.passwordHash };
    case 'GoogleAccountLinked':
      return { ...state, googleSubject: event.data.subject };
    case 'SsoAccountLinked':
      if (state.ssoOrganizationIds.includes(event.data.organizationId)) return state;
      return { ...state, ssoOrganizationIds: [...state.ssoOrganizationIds, event.data.organizationId] };
    case 'PasswordResetRequested': {
      const at = Date.parse(event.data.at);
      return {
        ...state,
        pendingResets: [
          ...state.pendingResets.filter((reset) => Date.parse(reset.expiresAt) > at),
          { tokenHash: event.data.tokenHash, expiresAt: event.data.expiresAt },
        ],
        resetRequestTimes: [...state.resetRequestTimes, event.data.at].slice(-resetMailsPerHour),
      };
    }
    case 'PasswordResetCompleted':
      return { ...state, pendingResets: [] };
    case 'PasswordChanged':
    case 'SignedIn':
    case 'SignedOut':
    case 'SignInFailed':
      return state;
    case 'AuthenticatorAppEnrolled':
    case 'AuthenticatorAppRemoved':
    case 'PasskeyRegistered':
    case 'PasskeyRenamed':
    case 'PasskeyRemoved':
    case 'RecoveryCodesGenerated':
    case 'SecondStepPassed':
    case 'SecondStepFailed':
    case 'SecondFactorsReset':
    case 'SecondFactorsResetRequested':
    case 'FactorChangeConfirmed':
      return { ...state, secondFactors: evolveSecondFactors(state.secondFactors, event) };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** Fed events newest first; `take` answers false once past `horizon`, the oldest start a live session can have. */
export class OpenSessionScan {
  readonly open: OpenSession[] = [];
  private readonly ended = new Set<string>();

  constructor(
    private readonly now: number,
    private readonly horizon: number,
  ) {}

  take(event: UserEvent): boolean {
    if (event.type === 'SignedOut') this.ended.add(event.data.sessionId);
    if (event.type === 'PasswordResetCompleted' || event.type === 'PasswordChanged')
      for (const sessionId of event.data.endedSessionIds) this.ended.add(sessionId);
    if (event.type === 'SecondStepPassed') this.ended.add(event.data.previousSessionId);
    if (
      (event.type === 'SignedIn' || event.type === 'SecondStepPassed') &&
      !this.ended.has(event.data.sessionId) &&
      Date.parse(event.data.absoluteExpiresAt) > this.now
    ) {
      this.open.unshift({ sessionId: event.data.sessionId, absoluteExpiresAt: event.data.absoluteExpiresAt });
    }
    return Date.parse(event.data.at) >= this.horizon;
  }
}
