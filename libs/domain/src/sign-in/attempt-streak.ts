// An attempt is counted when reserved, BEFORE its password is checked, so attempts arriving at once cannot all
// see the count from before any of them.

export type ThrottlePolicy = {
  windowMs: number;
  delayAfter: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** At most this many are ever checked per run. */
  lockAfter: number;
  /** Each further lock in a row doubles it, up to maxLockMs. */
  lockMs: number;
  maxLockMs: number;
  forgetLocksAfterMs: number;
};

const minute = 60_000;
const hour = 60 * minute;

/** Also per login name that matches no account, so that both lock alike. */
export const accountThrottlePolicy: ThrottlePolicy = {
  windowMs: 15 * minute,
  delayAfter: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  lockAfter: 10,
  lockMs: 15 * minute,
  maxLockMs: 24 * hour,
  forgetLocksAfterMs: 24 * hour,
};

/** Larger numbers: several people may share an address behind a NAT. */
export const addressThrottlePolicy: ThrottlePolicy = {
  windowMs: 15 * minute,
  delayAfter: 20,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  lockAfter: 100,
  lockMs: 15 * minute,
  maxLockMs: 24 * hour,
  forgetLocksAfterMs: 24 * hour,
};

/** Never slowed: the answer must not vary. */
export const resetRequestThrottlePolicy: ThrottlePolicy = {
  windowMs: 15 * minute,
  delayAfter: Number.POSITIVE_INFINITY,
  baseDelayMs: 0,
  maxDelayMs: 0,
  lockAfter: 10,
  lockMs: 15 * minute,
  maxLockMs: hour,
  forgetLocksAfterMs: 24 * hour,
};

export type AttemptStreak = {
  /** Failed, or still being checked. */
  outstanding: number;
  runStartedAt: string | null;
  lastAttemptAt: string | null;
  /** Locks in a row. */
  locks: number;
  lockedUntil: string | null;
};

export const noAttempts: AttemptStreak = {
  outstanding: 0,
  runStartedAt: null,
  lastAttemptAt: null,
  locks: 0,
  lockedUntil: null,
};

export type Reservation =
  { kind: 'refuse'; retryAfterMs: number } | { kind: 'reserve'; delayMs: number; streak: AttemptStreak };

const timeOf = (instant: string | null): number | null => (instant === null ? null : Date.parse(instant));

export function lockedFor(streak: AttemptStreak, now: Date): number {
  const lockedUntil = timeOf(streak.lockedUntil);
  return lockedUntil === null ? 0 : Math.max(0, lockedUntil - now.getTime());
}

const delayAfterAttempts = (before: number, policy: ThrottlePolicy): number =>
  before < policy.delayAfter ? 0 : Math.min(policy.baseDelayMs * 2 ** (before - policy.delayAfter), policy.maxDelayMs);

export const reservedAttemptDelay = (after: AttemptStreak, policy: ThrottlePolicy): number =>
  delayAfterAttempts(after.outstanding - 1, policy);

/** A refused attempt counts for nothing. */
export function reserveAttempt(streak: AttemptStreak, now: Date, policy: ThrottlePolicy): Reservation {
  const time = now.getTime();
  const lockedUntil = timeOf(streak.lockedUntil);
  if (lockedUntil !== null && time < lockedUntil) return { kind: 'refuse', retryAfterMs: lockedUntil - time };
  const lastAttempt = timeOf(streak.lastAttemptAt);
  const quiet = lastAttempt === null ? Number.POSITIVE_INFINITY : time - lastAttempt;
  const newRun = lockedUntil !== null || quiet > policy.windowMs;
  const locks = quiet > policy.forgetLocksAfterMs ? 0 : streak.locks;
  const before = newRun ? 0 : streak.outstanding;
  const delayMs = delayAfterAttempts(before, policy);
  const at = now.toISOString();
  const outstanding = before + 1;
  const runStartedAt = newRun ? at : (streak.runStartedAt ?? at);
  // Written out, not spread: V8 builds a spread followed by more properties on a slow path.
  if (outstanding < policy.lockAfter)
    return {
      kind: 'reserve',
      delayMs,
      streak: { outstanding, runStartedAt, lastAttemptAt: at, locks, lockedUntil: null },
    };
  // From this last attempt's check, once its delay has passed.
  const lockMs = Math.min(policy.lockMs * 2 ** locks, policy.maxLockMs);
  return {
    kind: 'reserve',
    delayMs,
    streak: {
      outstanding,
      runStartedAt,
      lastAttemptAt: at,
      locks: locks + 1,
      lockedUntil: new Date(time + delayMs + lockMs).toISOString(),
    },
  };
}

/**
 * Lifts a lock once too few attempts are outstanding, so people behind one address are never locked out by their own
 * successes.
 */
export function refundAttempt(
  streak: AttemptStreak,
  reservedAt: string,
  now: Date,
  policy: ThrottlePolicy,
): AttemptStreak | undefined {
  const runStartedAt = timeOf(streak.runStartedAt);
  if (runStartedAt === null || Date.parse(reservedAt) < runStartedAt || streak.outstanding === 0) return undefined;
  const outstanding = streak.outstanding - 1;
  const lockedUntil = timeOf(streak.lockedUntil);
  const unlocks = lockedUntil !== null && now.getTime() < lockedUntil && outstanding < policy.lockAfter;
  const locks = unlocks ? Math.max(0, streak.locks - 1) : streak.locks;
  return {
    outstanding,
    runStartedAt: streak.runStartedAt,
    lastAttemptAt: streak.lastAttemptAt,
    locks,
    lockedUntil: unlocks ? null : streak.lockedUntil,
  };
}
