import { describe, expect, it } from '@jest/globals';
import { deciderSpec } from '../testing/decider-spec.js';
import { noAttempts, type AttemptStreak } from './attempt-streak.js';
import { signInAttemptsDecider, type AttemptKind, type SignInAttemptEvent } from './sign-in-attempts.js';

const spec = deciderSpec(signInAttemptsDecider);

const runStart = '2030-01-01T09:00:00.000Z';
/** A moment `seconds` after the run started. */
const at = (seconds: number): string => new Date(Date.parse(runStart) + seconds * 1_000).toISOString();

/** The key as its last event left it: `outstanding` attempts one second apart from runStart, not locked. */
const streakOf = (outstanding: number, more: Partial<AttemptStreak> = {}): AttemptStreak => ({
  outstanding,
  runStartedAt: runStart,
  lastAttemptAt: at(outstanding - 1),
  locks: 0,
  lockedUntil: null,
  ...more,
});
const lastReserved = (streak: AttemptStreak): SignInAttemptEvent => ({
  type: 'SignInAttemptReserved',
  data: { at: streak.lastAttemptAt ?? runStart, streak },
});

/** An account locked by its tenth attempt at 09:00:09: the lock runs 15 minutes from its check, 8 s later. */
const locked = streakOf(10, { locks: 1, lockedUntil: '2030-01-01T09:15:17.000Z' });

const reserve = (kind: AttemptKind, now: string) =>
  ({ type: 'ReserveSignInAttempt', data: { kind, now: new Date(now) } }) as const;
const settle = (kind: AttemptKind, outcome: 'succeeded' | 'failed' | 'withdrawn', reservedAt: string, now: string) =>
  ({ type: 'SettleSignInAttempt', data: { kind, outcome, reservedAt, now: new Date(now) } }) as const;

describe('a sign-in attempts stream', () => {
  it('is named after its throttle key', () => {
    expect(signInAttemptsDecider.streamOf('account-u1')).toBe('sign-in-attempts-account-u1');
  });
});

describe('a failed check', () => {
  it('is recorded with the streak as it was: the attempt stays counted', () => {
    spec
      .given([lastReserved(streakOf(3))])
      .when(settle('account', 'failed', at(2), at(3)))
      .then([{ type: 'SignInAttemptFailed', data: { at: at(3), reservedAt: at(2), streak: streakOf(3) } }]);
  });
});

describe('reserving a sign-in attempt', () => {
  it('counts the first attempt on a key, which starts a run', () => {
    spec
      .given([])
      .when(reserve('account', runStart))
      .then([
        {
          type: 'SignInAttemptReserved',
          data: {
            at: runStart,
            streak: { outstanding: 1, runStartedAt: runStart, lastAttemptAt: runStart, locks: 0, lockedUntil: null },
          },
        },
      ]);
  });

  it('counts a further attempt in the same run', () => {
    spec
      .given([lastReserved(streakOf(2))])
      .when(reserve('account', at(2)))
      .then([{ type: 'SignInAttemptReserved', data: { at: at(2), streak: streakOf(3) } }]);
  });

  it('does not lock an account on its ninth attempt in a run', () => {
    spec
      .given([lastReserved(streakOf(8))])
      .when(reserve('account', at(8)))
      .then([{ type: 'SignInAttemptReserved', data: { at: at(8), streak: streakOf(9) } }]);
  });

  it('locks an account with its tenth attempt in a run, for 15 minutes from that attempt’s check 8 s later', () => {
    spec
      .given([lastReserved(streakOf(9))])
      .when(reserve('account', at(9)))
      .then([{ type: 'SignInAttemptReserved', data: { at: at(9), streak: locked } }]);
  });

  it.each<AttemptKind>(['name', 'second-step'])('locks a %s key on its tenth attempt, as an account', (kind) => {
    spec
      .given([lastReserved(streakOf(9))])
      .when(reserve(kind, at(9)))
      .then([{ type: 'SignInAttemptReserved', data: { at: at(9), streak: locked } }]);
  });

  it('lets a client address make 99 attempts in a run and locks it with the 100th', () => {
    spec
      .given([lastReserved(streakOf(9))])
      .when(reserve('address', at(9)))
      .then([{ type: 'SignInAttemptReserved', data: { at: at(9), streak: streakOf(10) } }]);
    spec
      .given([lastReserved(streakOf(98))])
      .when(reserve('address', at(98)))
      .then([{ type: 'SignInAttemptReserved', data: { at: at(98), streak: streakOf(99) } }]);
    spec
      .given([lastReserved(streakOf(99))])
      .when(reserve('address', at(99)))
      .then([
        {
          type: 'SignInAttemptReserved',
          data: { at: at(99), streak: streakOf(100, { locks: 1, lockedUntil: '2030-01-01T09:16:47.000Z' }) },
        },
      ]);
  });

  it('refuses an attempt while the key is locked, counting nothing, and says in whole seconds when to retry', () => {
    spec
      .given([lastReserved(locked)])
      .when(reserve('account', at(10)))
      .thenThrows('RATE_LIMITED', { retryAfterSeconds: 907 });
    spec
      .given([lastReserved(locked)])
      .when(reserve('account', '2030-01-01T09:15:16.999Z'))
      .thenThrows('RATE_LIMITED', { retryAfterSeconds: 1 });
  });

  it('starts a new run once the lock has run out, remembering the lock', () => {
    const now = '2030-01-01T09:15:17.000Z';
    spec
      .given([lastReserved(locked)])
      .when(reserve('account', now))
      .then([
        {
          type: 'SignInAttemptReserved',
          data: {
            at: now,
            streak: { outstanding: 1, runStartedAt: now, lastAttemptAt: now, locks: 1, lockedUntil: null },
          },
        },
      ]);
  });

  it('locks twice as long when the run after a lock locks again', () => {
    const secondRun = streakOf(9, {
      runStartedAt: '2030-01-01T09:15:17.000Z',
      lastAttemptAt: '2030-01-01T09:15:25.000Z',
      locks: 1,
    });
    const now = '2030-01-01T09:15:26.000Z';
    spec
      .given([lastReserved(secondRun)])
      .when(reserve('account', now))
      .then([
        {
          type: 'SignInAttemptReserved',
          data: {
            at: now,
            streak: {
              ...secondRun,
              outstanding: 10,
              lastAttemptAt: now,
              locks: 2,
              lockedUntil: '2030-01-01T09:45:34.000Z',
            },
          },
        },
      ]);
  });

  it('continues the run after exactly 15 quiet minutes and starts a new one a millisecond later', () => {
    spec
      .given([lastReserved(streakOf(5))])
      .when(reserve('account', '2030-01-01T09:15:04.000Z'))
      .then([
        {
          type: 'SignInAttemptReserved',
          data: { at: '2030-01-01T09:15:04.000Z', streak: streakOf(6, { lastAttemptAt: '2030-01-01T09:15:04.000Z' }) },
        },
      ]);
    const later = '2030-01-01T09:15:04.001Z';
    spec
      .given([lastReserved(streakOf(5))])
      .when(reserve('account', later))
      .then([
        {
          type: 'SignInAttemptReserved',
          data: {
            at: later,
            streak: { outstanding: 1, runStartedAt: later, lastAttemptAt: later, locks: 0, lockedUntil: null },
          },
        },
      ]);
  });
});

describe('settling an attempt that had the right password', () => {
  it('clears an account: its count and its locks in a row', () => {
    spec
      .given([lastReserved(streakOf(3, { locks: 2 }))])
      .when(settle('account', 'succeeded', at(2), at(3)))
      .then([{ type: 'SignInAttemptSucceeded', data: { at: at(3), reservedAt: at(2), streak: noAttempts } }]);
  });

  it('clears a second step even while it is locked', () => {
    spec
      .given([lastReserved(locked)])
      .when(settle('second-step', 'succeeded', at(5), at(10)))
      .then([{ type: 'SignInAttemptSucceeded', data: { at: at(10), reservedAt: at(5), streak: noAttempts } }]);
  });

  it('records nothing for an account that is already clear', () => {
    spec
      .given([])
      .when(settle('account', 'succeeded', runStart, at(1)))
      .then([]);
  });

  it('takes back only its own attempt from a client address', () => {
    spec
      .given([lastReserved(streakOf(30))])
      .when(settle('address', 'succeeded', at(5), at(30)))
      .then([
        {
          type: 'SignInAttemptSucceeded',
          data: { at: at(30), reservedAt: at(5), streak: streakOf(29, { lastAttemptAt: at(29) }) },
        },
      ]);
  });

  it('takes back only its own attempt from a login name', () => {
    spec
      .given([lastReserved(streakOf(3, { locks: 1 }))])
      .when(settle('name', 'succeeded', at(2), at(3)))
      .then([
        {
          type: 'SignInAttemptSucceeded',
          data: { at: at(3), reservedAt: at(2), streak: streakOf(2, { lastAttemptAt: at(2), locks: 1 }) },
        },
      ]);
  });

  it('takes nothing back from a client address whose run started after the attempt', () => {
    const laterRun = streakOf(1, {
      runStartedAt: '2030-01-01T09:20:00.000Z',
      lastAttemptAt: '2030-01-01T09:20:00.000Z',
    });
    spec
      .given([lastReserved(laterRun)])
      .when(settle('address', 'succeeded', at(5), '2030-01-01T09:20:01.000Z'))
      .then([]);
  });
});

describe('withdrawing an attempt another key refused', () => {
  it('no longer counts it, and lifts the lock it set', () => {
    spec
      .given([lastReserved(locked)])
      .when(settle('account', 'withdrawn', at(9), at(10)))
      .then([
        {
          type: 'SignInAttemptWithdrawn',
          data: { at: at(10), reservedAt: at(9), streak: streakOf(9, { lastAttemptAt: at(9) }) },
        },
      ]);
  });

  it('leaves a lock that has already run out as it was', () => {
    const now = '2030-01-01T09:15:17.000Z';
    spec
      .given([lastReserved(locked)])
      .when(settle('account', 'withdrawn', at(9), now))
      .then([
        { type: 'SignInAttemptWithdrawn', data: { at: now, reservedAt: at(9), streak: { ...locked, outstanding: 9 } } },
      ]);
  });

  it('does not clear an account, even one the withdrawn attempt belonged to', () => {
    spec
      .given([lastReserved(streakOf(3))])
      .when(settle('account', 'withdrawn', at(2), at(3)))
      .then([
        {
          type: 'SignInAttemptWithdrawn',
          data: { at: at(3), reservedAt: at(2), streak: streakOf(2, { lastAttemptAt: at(2) }) },
        },
      ]);
  });

  it('records nothing when no attempt is outstanding', () => {
    spec
      .given([])
      .when(settle('address', 'withdrawn', runStart, at(1)))
      .then([]);
  });
});

describe('clearing attempts after a password reset', () => {
  it('clears the count and the lock, so that a lock never keeps the owner out', () => {
    spec
      .given([lastReserved(locked)])
      .when({ type: 'ClearSignInAttempts', data: { now: new Date(at(60)) } })
      .then([{ type: 'SignInAttemptsCleared', data: { at: at(60), reason: 'password-reset', streak: noAttempts } }]);
  });

  it('records nothing for a key that is clear', () => {
    spec
      .given([])
      .when({ type: 'ClearSignInAttempts', data: { now: new Date(at(60)) } })
      .then([]);
  });
});
