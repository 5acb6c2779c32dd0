// Attempts in a row and the throttle they earn: growing delays, then a lock that grows with every lock
// in a row. An attempt is counted when it is reserved, BEFORE its password is checked, so attempts
// arriving at once cannot all see the count from before any of them: the reservation is the decision.
// Pure: the same functions decide on a sign-in attempt stream and on the in-memory reset counters.

export type ThrottlePolicy = {
  /** An attempt more than this after the previous one starts a new run. */
  windowMs: number;
  /** Attempts outstanding in the run before further ones are slowed. */
  delayAfter: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Attempts outstanding in the run that lock the key: at most this many are ever checked per run. */
  lockAfter: number;
  /** The first lock; each further lock in a row doubles it, up to maxLockMs. */
  lockMs: number;
  maxLockMs: number;
  /** Locks in a row are forgotten after this long without an attempt. */
  forgetLocksAfterMs: number;
};

const minute = 60_000;
const hour = 60 * minute;

/** Per account, and per login name that matches no account (so that both lock alike). */
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

/** Per client address (several people may share one behind a NAT, hence the larger numbers). */
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

/** Reset requests per client address: never slowed (the answer must not vary), refused after 10. */
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
  /** Attempts of the current run not known to have succeeded: failed, or still being checked. */
  outstanding: number;
  /** When the current run's first attempt was reserved; null before any. */
  runStartedAt: string | null;
  lastAttemptAt: string | null;
  /** Locks in a row. */
  locks: number;
  lockedUntil: string | null;
};

export const noAttempts: AttemptStreak = { outstanding: 0, runStartedAt: null, lastAttemptAt: null, locks: 0, lockedUntil: null };

/** Refused (the key is locked), or reserved: the attempt may be checked once `delayMs` has passed. */
export type Reservation = { kind: 'refuse'; retryAfterMs: number } | { kind: 'reserve'; delayMs: number; streak: AttemptStreak };

const timeOf = (instant: string | null): number | null => (instant === null ? null : Date.parse(instant));

/** How long the key stays locked from `now` (0: not locked): what reserveAttempt refuses on, without counting. */
export function lockedFor(streak: AttemptStreak, now: Date): number {
  const lockedUntil = timeOf(streak.lockedUntil);
  return lockedUntil === null ? 0 : Math.max(0, lockedUntil - now.getTime());
}

/** Counts one more attempt, or refuses it while the key is locked (a refused attempt counts for nothing). */
export function reserveAttempt(streak: AttemptStreak, now: Date, policy: ThrottlePolicy): Reservation {
  const time = now.getTime();
  const lockedUntil = timeOf(streak.lockedUntil);
  if (lockedUntil !== null && time < lockedUntil) return { kind: 'refuse', retryAfterMs: lockedUntil - time };
  const lastAttempt = timeOf(streak.lastAttemptAt);
  const quiet = lastAttempt === null ? Number.POSITIVE_INFINITY : time - lastAttempt;
  // A lock that has run out ends its run, as do quiet minutes.
  const newRun = lockedUntil !== null || quiet > policy.windowMs;
  const locks = quiet > policy.forgetLocksAfterMs ? 0 : streak.locks;
  const before = newRun ? 0 : streak.outstanding;
  const delayMs = before < policy.delayAfter ? 0 : Math.min(policy.baseDelayMs * 2 ** (before - policy.delayAfter), policy.maxDelayMs);
  const at = now.toISOString();
  const outstanding = before + 1;
  const runStartedAt = newRun ? at : (streak.runStartedAt ?? at);
  // Streaks are written out, not spread: a spread followed by more properties costs microseconds per sign-in.
  if (outstanding < policy.lockAfter) return { kind: 'reserve', delayMs, streak: { outstanding, runStartedAt, lastAttemptAt: at, locks, lockedUntil: null } };
  // The lock runs from this last attempt's check, once its delay has passed.
  const lockMs = Math.min(policy.lockMs * 2 ** locks, policy.maxLockMs);
  return { kind: 'reserve', delayMs, streak: { outstanding, runStartedAt, lastAttemptAt: at, locks: locks + 1, lockedUntil: new Date(time + delayMs + lockMs).toISOString() } };
}

/**
 * One attempt reserved at `reservedAt` turned out right: it no longer counts. A lock it helped to set is
 * lifted when the attempts still outstanding are fewer than lock one, so that people signing in at once
 * behind one address are never locked out by their own successes. Undefined: nothing to take back (the
 * attempt's run is over).
 */
export function refundAttempt(streak: AttemptStreak, reservedAt: string, now: Date, policy: ThrottlePolicy): AttemptStreak | undefined {
  const runStartedAt = timeOf(streak.runStartedAt);
  if (runStartedAt === null || Date.parse(reservedAt) < runStartedAt || streak.outstanding === 0) return undefined;
  const outstanding = streak.outstanding - 1;
  const lockedUntil = timeOf(streak.lockedUntil);
  const unlocks = lockedUntil !== null && now.getTime() < lockedUntil && outstanding < policy.lockAfter;
  const locks = unlocks ? Math.max(0, streak.locks - 1) : streak.locks;
  return { outstanding, runStartedAt: streak.runStartedAt, lastAttemptAt: streak.lastAttemptAt, locks, lockedUntil: unlocks ? null : streak.lockedUntil };
}

