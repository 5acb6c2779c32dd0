import { describe, expect, it } from '@jest/globals';
import {
  accountThrottlePolicy,
  addressThrottlePolicy,
  lockedFor,
  noAttempts,
  refundAttempt,
  reserveAttempt,
  type AttemptStreak,
  type Reservation,
} from './attempt-streak.js';

const start = new Date('2030-01-01T09:00:00.000Z');
const after = (milliseconds: number) => new Date(start.getTime() + milliseconds);
const minute = 60_000;

function reserved(reservation: Reservation): Extract<Reservation, { kind: 'reserve' }> {
  if (reservation.kind !== 'reserve') throw new Error(`refused for ${reservation.retryAfterMs} ms`);
  return reservation;
}

/** `count` attempts, one every `everyMs`, each reserved on the streak the previous one left. */
function attempts(
  count: number,
  { everyMs = 1_000, from = noAttempts, startingAt = 0, policy = accountThrottlePolicy } = {},
) {
  let streak: AttemptStreak = from;
  const delays: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const reservation = reserved(reserveAttempt(streak, after(startingAt + index * everyMs), policy));
    delays.push(reservation.delayMs);
    streak = reservation.streak;
  }
  return { streak, delays };
}

describe('the sign-in throttle (per account)', () => {
  it('lets the first three attempts through without delay, then slows attempts more and more', () => {
    expect(attempts(10).delays).toEqual([0, 0, 0, 500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
  });

  it('counts attempts made at the same instant one after the other: the reservation is the decision', () => {
    const { streak, delays } = attempts(10, { everyMs: 0 });

    expect(delays).toEqual([0, 0, 0, 500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    // The lock runs 15 minutes from the tenth attempt's check, after its delay of 8 s.
    expect(reserveAttempt(streak, start, accountThrottlePolicy)).toEqual({
      kind: 'refuse',
      retryAfterMs: 8_000 + 15 * minute,
    });
  });

  it('locks the key with the tenth attempt in a run, for 15 minutes from its check, so that no eleventh is checked', () => {
    const { streak } = attempts(10);
    const checked = 9_000 + 8_000;

    expect(streak.lockedUntil).toBe(after(checked + 15 * minute).toISOString());
    expect(reserveAttempt(streak, after(checked), accountThrottlePolicy)).toEqual({
      kind: 'refuse',
      retryAfterMs: 15 * minute,
    });
    expect(reserveAttempt(streak, after(checked + 15 * minute), accountThrottlePolicy)).toMatchObject({
      kind: 'reserve',
      delayMs: 0,
      streak: { outstanding: 1 },
    });
  });

  it('says how long a key stays locked exactly when a reservation would be refused, and for as long', () => {
    const { streak } = attempts(10);
    const checked = 9_000 + 8_000;

    expect(lockedFor(attempts(9).streak, after(checked))).toBe(0);
    for (const at of [0, checked, checked + 15 * minute - 1, checked + 15 * minute, checked + 16 * minute]) {
      const reservation = reserveAttempt(streak, after(at), accountThrottlePolicy);
      expect(lockedFor(streak, after(at))).toBe(reservation.kind === 'refuse' ? reservation.retryAfterMs : 0);
    }
    expect(lockedFor(streak, after(checked + 15 * minute - 1))).toBe(1);
  });

  it('doubles the lock for each further lock in a row, and forgets them after 24 quiet hours', () => {
    const first = attempts(10).streak;
    const second = attempts(10, { from: first, startingAt: 17_000 + 15 * minute }).streak;

    expect(second.locks).toBe(2);
    expect(Date.parse(second.lockedUntil ?? '') - Date.parse(second.lastAttemptAt ?? '')).toBe(8_000 + 30 * minute);
    const muchLater = reserved(
      reserveAttempt(
        second,
        new Date(Date.parse(second.lastAttemptAt ?? '') + 24 * 60 * minute + 1),
        accountThrottlePolicy,
      ),
    );
    expect(muchLater.streak).toMatchObject({ outstanding: 1, locks: 0, lockedUntil: null });
  });

  it('starts a new run after 15 quiet minutes', () => {
    const { streak } = attempts(5);

    const next = reserved(reserveAttempt(streak, after(4_000 + 15 * minute + 1), accountThrottlePolicy));

    expect(next).toMatchObject({
      delayMs: 0,
      streak: { outstanding: 1, runStartedAt: after(4_000 + 15 * minute + 1).toISOString() },
    });
  });
});

describe('taking back an attempt that turned out right (per address)', () => {
  it('no longer counts it', () => {
    const { streak } = attempts(30, { policy: addressThrottlePolicy });

    const refunded = refundAttempt(streak, after(5_000).toISOString(), after(30_000), addressThrottlePolicy);

    expect(refunded).toEqual({ ...streak, outstanding: 29 });
  });

  it('lifts a lock that successes helped to set, so people signing in at once behind one address are not locked out', () => {
    const { streak } = attempts(100, { everyMs: 0, policy: addressThrottlePolicy });
    expect(streak).toMatchObject({ outstanding: 100, locks: 1, lockedUntil: after(8_000 + 15 * minute).toISOString() });

    const refunded = refundAttempt(streak, start.toISOString(), after(50), addressThrottlePolicy);

    expect(refunded).toMatchObject({ outstanding: 99, locks: 0, lockedUntil: null });
    // The next attempt locks again, for as long as the first lock: it was not a lock in a row.
    expect(reserved(reserveAttempt(refunded ?? noAttempts, after(60), addressThrottlePolicy)).streak).toMatchObject({
      locks: 1,
      lockedUntil: after(60 + 8_000 + 15 * minute).toISOString(),
    });
  });

  it('takes nothing back from a run that is over', () => {
    const old = attempts(3, { policy: addressThrottlePolicy }).streak;
    const fresh = attempts(1, { from: old, startingAt: 20 * minute, policy: addressThrottlePolicy }).streak;

    expect(refundAttempt(fresh, start.toISOString(), after(20 * minute), addressThrottlePolicy)).toBeUndefined();
    expect(refundAttempt(noAttempts, start.toISOString(), start, addressThrottlePolicy)).toBeUndefined();
  });
});
