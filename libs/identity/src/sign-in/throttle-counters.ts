// Throttle streaks kept in this process's memory, by key: reset requests per client address (sign-in
// attempts are counted in the event store instead, sign-in-attempts.ts, so that every API node agrees).
import { makeRoom } from '#application';
import { noAttempts, reserveAttempt, type AttemptStreak, type Reservation, type ThrottlePolicy } from '#domain';

export class ThrottleCounters {
  private readonly streaks = new Map<string, AttemptStreak>();

  constructor(
    private readonly policy: ThrottlePolicy,
    /** Bounded so a flood of distinct keys cannot exhaust memory; the least recently counted go first. */
    private readonly maxKeys = 100_000,
  ) {}

  /** Counts an attempt for the key, unless it is locked (a refused attempt counts for nothing). */
  reserve(key: string, now: Date): Reservation {
    const reservation = reserveAttempt(this.streaks.get(key) ?? noAttempts, now, this.policy);
    if (reservation.kind === 'refuse') return reservation;
    this.streaks.delete(key);
    // A flood of distinct keys evicts the least recently counted, a tenth at a time: one at a time is quadratic.
    makeRoom(this.streaks, this.maxKeys);
    this.streaks.set(key, reservation.streak);
    return reservation;
  }
}
