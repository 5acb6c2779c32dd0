// Consecutive failed sign-ins and the throttle they earn: growing delays, then a lock that grows
// with every lock in a row. Pure: the same fold serves the user's stream and the in-memory counters.

export type ThrottlePolicy = {
  /** A failure older than this (since the previous one) starts a new run. */
  windowMs: number;
  /** Failures in the run before attempts start to be slowed. */
  delayAfter: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures in the run that lock the key. */
  lockAfter: number;
  /** The first lock; each further lock in a row doubles it, up to maxLockMs. */
  lockMs: number;
  maxLockMs: number;
  /** Locks in a row are forgotten after this long without a failure. */
  forgetLocksAfterMs: number;
};

const minute = 60_000;
const hour = 60 * minute;

/** Per account, from the user's own stream, so every API node sees the same count. */
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

export type FailureStreak = {
  /** Failures in the current run (reset by a lock, a success or a quiet window). */
  failures: number;
  lastFailureAt: string | null;
  /** Locks in a row. */
  locks: number;
  lockedUntil: string | null;
};

export const noFailures: FailureStreak = { failures: 0, lastFailureAt: null, locks: 0, lockedUntil: null };

export type ThrottleDecision = { kind: 'allow'; delayMs: number } | { kind: 'refuse'; retryAfterMs: number };

const since = (earlier: string | null, now: Date): number =>
  earlier === null ? Number.POSITIVE_INFINITY : now.getTime() - new Date(earlier).getTime();

export function recordFailure(streak: FailureStreak, at: Date, policy: ThrottlePolicy): FailureStreak {
  const quiet = since(streak.lastFailureAt, at);
  const locks = quiet > policy.forgetLocksAfterMs ? 0 : streak.locks;
  const failures = (quiet > policy.windowMs ? 0 : streak.failures) + 1;
  if (failures < policy.lockAfter) {
    return { failures, lastFailureAt: at.toISOString(), locks, lockedUntil: streak.lockedUntil };
  }
  const lockMs = Math.min(policy.lockMs * 2 ** locks, policy.maxLockMs);
  return {
    failures: 0,
    lastFailureAt: at.toISOString(),
    locks: locks + 1,
    lockedUntil: new Date(at.getTime() + lockMs).toISOString(),
  };
}

export function throttleDecision(streak: FailureStreak, now: Date, policy: ThrottlePolicy): ThrottleDecision {
  if (streak.lockedUntil !== null) {
    const retryAfterMs = new Date(streak.lockedUntil).getTime() - now.getTime();
    if (retryAfterMs > 0) return { kind: 'refuse', retryAfterMs };
  }
  const failures = since(streak.lastFailureAt, now) > policy.windowMs ? 0 : streak.failures;
  if (failures < policy.delayAfter) return { kind: 'allow', delayMs: 0 };
  return {
    kind: 'allow',
    delayMs: Math.min(policy.baseDelayMs * 2 ** (failures - policy.delayAfter), policy.maxDelayMs),
  };
}

/** The stricter of two decisions: a refusal wins, else the longer delay. */
export function stricter(first: ThrottleDecision, second: ThrottleDecision): ThrottleDecision {
  if (first.kind === 'refuse' && second.kind === 'refuse') {
    return { kind: 'refuse', retryAfterMs: Math.max(first.retryAfterMs, second.retryAfterMs) };
  }
  if (first.kind === 'refuse') return first;
  if (second.kind === 'refuse') return second;
  return { kind: 'allow', delayMs: Math.max(first.delayMs, second.delayMs) };
}
