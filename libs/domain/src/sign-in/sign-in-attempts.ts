// Reserved by an append at the expected revision: of attempts arriving at once, each sees every one before it.
// Each event carries the whole streak after it, so a stream is read from its last event.
import type { Decider } from '../decider.js';
import { RateLimited } from '../errors.js';
import {
  accountThrottlePolicy,
  addressThrottlePolicy,
  noAttempts,
  refundAttempt,
  reserveAttempt,
  type AttemptStreak,
  type ThrottlePolicy,
} from './attempt-streak.js';

export type SignInAttemptReserved = { type: 'SignInAttemptReserved'; data: { at: string; streak: AttemptStreak } };
export type SignInAttemptSucceeded = {
  type: 'SignInAttemptSucceeded';
  data: { at: string; reservedAt: string; streak: AttemptStreak };
};
export type SignInAttemptWithdrawn = {
  type: 'SignInAttemptWithdrawn';
  data: { at: string; reservedAt: string; streak: AttemptStreak };
};
/**
 * The check that followed the reservation failed (a wrong password): it stays counted, and says so for the account's
 * history.
 */
export type SignInAttemptFailed = {
  type: 'SignInAttemptFailed';
  data: { at: string; reservedAt: string; streak: AttemptStreak };
};
/** A lock never keeps the owner out. */
export type SignInAttemptsCleared = {
  type: 'SignInAttemptsCleared';
  data: { at: string; reason: 'password-reset'; streak: AttemptStreak };
};

export type SignInAttemptEvent =
  SignInAttemptReserved | SignInAttemptSucceeded | SignInAttemptFailed | SignInAttemptWithdrawn | SignInAttemptsCleared;

/** Names and addresses are keyed digests: the store never holds what someone typed. */
export type AttemptKind = 'account' | 'name' | 'address' | 'second-step';
export type AttemptKey = { kind: AttemptKind; id: string };

export const signInAttemptsStreamPrefix = 'sign-in-attempts-';
export const attemptKeyId = (key: AttemptKey): string => `${key.kind}-${key.id}`;
export const signInAttemptsStream = (key: AttemptKey): string => `${signInAttemptsStreamPrefix}${attemptKeyId(key)}`;
/** An account's attempts: the stream's name ends with the user's id. */
export const accountAttemptsStreamPrefix = `${signInAttemptsStreamPrefix}account-`;

export const attemptPolicies: Record<AttemptKind, ThrottlePolicy> = {
  // Names that match no account lock as accounts do, so that the answers tell nothing.
  account: accountThrottlePolicy,
  name: accountThrottlePolicy,
  address: addressThrottlePolicy,
  'second-step': accountThrottlePolicy,
};

export const isClear = (streak: AttemptStreak): boolean => streak.outstanding === 0 && streak.lockedUntil === null;

export type SignInAttemptCommand =
  | { type: 'ReserveSignInAttempt'; data: { kind: AttemptKind; now: Date } }
  | {
      type: 'SettleSignInAttempt';
      data: { kind: AttemptKind; outcome: 'succeeded' | 'failed' | 'withdrawn'; reservedAt: string; now: Date };
    }
  | { type: 'ClearSignInAttempts'; data: { now: Date } };

function reserved(streak: AttemptStreak, kind: AttemptKind, now: Date): SignInAttemptEvent[] {
  const reservation = reserveAttempt(streak, now, attemptPolicies[kind]);
  if (reservation.kind === 'refuse') throw new RateLimited(Math.ceil(reservation.retryAfterMs / 1000));
  return [{ type: 'SignInAttemptReserved', data: { at: now.toISOString(), streak: reservation.streak } }];
}

function settled(
  streak: AttemptStreak,
  { kind, outcome, reservedAt, now }: Extract<SignInAttemptCommand, { type: 'SettleSignInAttempt' }>['data'],
): SignInAttemptEvent[] {
  const at = now.toISOString();
  if (outcome === 'failed') return [{ type: 'SignInAttemptFailed', data: { at, reservedAt, streak } }];
  if (outcome === 'withdrawn') {
    const next = refundAttempt(streak, reservedAt, now, attemptPolicies[kind]);
    return next === undefined ? [] : [{ type: 'SignInAttemptWithdrawn', data: { at, reservedAt, streak: next } }];
  }
  const startsAfresh = kind === 'account' || kind === 'second-step';
  const next = !startsAfresh
    ? refundAttempt(streak, reservedAt, now, attemptPolicies[kind])
    : isClear(streak)
      ? undefined
      : noAttempts;
  return next === undefined ? [] : [{ type: 'SignInAttemptSucceeded', data: { at, reservedAt, streak: next } }];
}

export const signInAttemptsDecider: Decider<AttemptStreak, SignInAttemptCommand, SignInAttemptEvent> = {
  streamOf: (id) => `${signInAttemptsStreamPrefix}${id}`,
  initialState: noAttempts,
  evolve: (_streak, event) => event.data.streak,
  stateInLastEvent: true,
  decide: (command, streak) => {
    switch (command.type) {
      case 'ReserveSignInAttempt':
        return reserved(streak, command.data.kind, command.data.now);
      case 'SettleSignInAttempt':
        return settled(streak, command.data);
      case 'ClearSignInAttempts':
        return isClear(streak)
          ? []
          : [
              {
                type: 'SignInAttemptsCleared',
                data: { at: command.data.now.toISOString(), reason: 'password-reset', streak: noAttempts },
              },
            ];
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  },
};
