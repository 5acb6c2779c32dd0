// Sign-in attempts counted in the event store, one stream per throttle key, so that every API node
// sharing the store counts the same attempts. An attempt is reserved BEFORE its password is checked, by
// an append at the stream's expected revision: of attempts arriving at once, each reservation sees every
// one before it, and the key locks with the one that fills it, whichever node took it.
//
// Each event carries the whole streak after it, so deciding reads the stream's last event only
// (lastEventHoldsState): one read of one event whatever the key's history.
import {
  eventMetadata,
  FoldedStateCache,
  handleCommand,
  loadStream,
  type CommandContext,
  type CommandHandlerOptions,
  type LoadedStream,
  type StreamFold,
} from '#application';
import { WrongExpectedRevisionError, type EventStore } from '#event-store';
import type { Clock } from '../clock.js';
import { RateLimited } from '#domain';
import { hmacHex } from '../hashing.js';
import type { LoginName } from '../user/identifiers.js';
import {
  accountThrottlePolicy,
  addressThrottlePolicy,
  lockedFor,
  noAttempts,
  refundAttempt,
  reserveAttempt,
  type AttemptStreak,
  type ThrottlePolicy,
} from './attempt-streak.js';
import { clientAddressKey } from './client-address.js';

/** Counted before the check; `streak` is the key's state with it. */
export type SignInAttemptReserved = { type: 'SignInAttemptReserved'; data: { at: string; streak: AttemptStreak } };
/** The attempt reserved at `reservedAt` had the right password: an account's count and lock are cleared, an address's attempt taken back. */
export type SignInAttemptSucceeded = { type: 'SignInAttemptSucceeded'; data: { at: string; reservedAt: string; streak: AttemptStreak } };
/** The attempt reserved at `reservedAt` was refused by another of its keys (locked) before any check: it no longer counts. */
export type SignInAttemptWithdrawn = { type: 'SignInAttemptWithdrawn'; data: { at: string; reservedAt: string; streak: AttemptStreak } };
/** A completed password reset clears the account's count and lock: a lock never keeps the owner out. */
export type SignInAttemptsCleared = { type: 'SignInAttemptsCleared'; data: { at: string; reason: 'password-reset'; streak: AttemptStreak } };

export type SignInAttemptEvent = SignInAttemptReserved | SignInAttemptSucceeded | SignInAttemptWithdrawn | SignInAttemptsCleared;

/**
 * What attempts are counted by: an account (its user id, readable for auditors beside `user-<id>`), a
 * login name that matches no account, or a client address (the last two as keyed digests: the store
 * never holds what someone typed as a name, nor a digest of it that a dictionary would reverse).
 */
export type AttemptKey = { kind: 'account'; id: string } | { kind: 'name'; id: string } | { kind: 'address'; id: string } | { kind: 'second-step'; id: string };

export const signInAttemptsStreamPrefix = 'sign-in-attempts-';
export const signInAttemptsStream = (key: AttemptKey): string => `${signInAttemptsStreamPrefix}${key.kind}-${key.id}`;

const policies: Record<AttemptKey['kind'], ThrottlePolicy> = {
  // Names that match no account lock exactly as accounts do, so that the answers tell nothing.
  account: accountThrottlePolicy,
  name: accountThrottlePolicy,
  address: addressThrottlePolicy,
  // Codes of the second step are guessed as passwords are: counted per account (its user id), the same numbers.
  'second-step': accountThrottlePolicy,
};

const attemptsFold: StreamFold<AttemptStreak, SignInAttemptEvent> = {
  initialState: noAttempts,
  evolve: (_streak, event) => event.data.streak,
  lastEventHoldsState: true,
};

const isClear = (streak: AttemptStreak): boolean => streak.outstanding === 0 && streak.lockedUntil === null;

/** Keys whose last state this node remembers (its own appends), so settling an attempt needs no read. */
const REMEMBERED_KEYS = 10_000;

/** A key's stream as read (or left by this node's own append) a moment ago: where its next decision starts. */
export type KnownStreak = Omit<LoadedStream<AttemptStreak>, 'recorded'>;

/**
 * A reserved attempt: when it was counted (to take it back), how long to wait before checking it, and
 * the key's stream as the reservation left it (where settling it starts, without reading it again).
 */
export type ReservedAttempt = { key: AttemptKey; reservedAt: string; delayMs: number; known: KnownStreak };

export class SignInAttempts {
  /**
   * Where this node's own appends left each key (bounded LRU). Only ever a starting point for a decision
   * after the password check (settling): its append carries the revision, so a key another attempt or
   * node moved since costs a read and a second decision. The lock check before the password is always
   * a read, the same on every path.
   */
  private readonly latest = new FoldedStateCache<AttemptStreak>(REMEMBERED_KEYS);

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    /** HKDF-derived from SESSION_SECRET (purpose 'sign-in-attempts'), the same on every node. */
    private readonly digestKey: Buffer,
  ) {}

  account(userId: string): AttemptKey {
    return { kind: 'account', id: userId };
  }

  secondStep(userId: string): AttemptKey {
    return { kind: 'second-step', id: userId };
  }

  name(name: LoginName): AttemptKey {
    return { kind: 'name', id: hmacHex(this.digestKey, `${name.kind}:${name.value}`) };
  }

  address(clientIp: string): AttemptKey {
    return { kind: 'address', id: hmacHex(this.digestKey, clientAddressKey(clientIp)) };
  }

  /**
   * Refuses with RATE_LIMITED, recording nothing, while the key is locked: so that attempts at a locked
   * account are not even counted against their address (each would be a stored event that no password
   * check paid for). A read; the reservation decides again, starting from what it read (answered), so the
   * key is read once for both.
   */
  async refuseIfLocked(key: AttemptKey): Promise<KnownStreak> {
    const loaded = await loadStream(this.store, signInAttemptsStream(key), attemptsFold);
    // Refused exactly when a reservation now would be (locked), without working out the reservation.
    const lockedMs = lockedFor(loaded.state, this.clock.now());
    if (lockedMs > 0) throw new RateLimited(Math.ceil(lockedMs / 1000));
    return { state: loaded.state, revision: loaded.revision, position: loaded.position };
  }

  /**
   * Counts one attempt for the key before its check, or refuses with RATE_LIMITED while the key is locked
   * (recording nothing). Each race lost to another attempt on the key means one more attempt was counted,
   * so the key locks within `lockAfter` of them; should it lose more (successes taking attempts back in
   * between), the attempt is refused as one too many at once, never answered with a conflict. `known`:
   * the key as just read (refuseIfLocked), decided on without a read; its append's expected revision
   * makes a stale one a lost race like any other.
   */
  async reserve(key: AttemptKey, context: CommandContext, known?: KnownStreak): Promise<ReservedAttempt> {
    const policy = policies[key.kind];
    let reservedAt = '';
    let delayMs = 0;
    let handled: KnownStreak;
    try {
      handled = await handleCommand(
        this.store,
        signInAttemptsStream(key),
        (streak: AttemptStreak): SignInAttemptEvent[] => {
          const now = this.clock.now();
          const reservation = reserveAttempt(streak, now, policy);
          if (reservation.kind === 'refuse') throw new RateLimited(Math.ceil(reservation.retryAfterMs / 1000));
          reservedAt = now.toISOString();
          delayMs = reservation.delayMs;
          return [{ type: 'SignInAttemptReserved', data: { at: reservedAt, streak: reservation.streak } }];
        },
        this.commandOptions(key, context, known),
      );
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) throw new RateLimited(1);
      throw error;
    }
    return { key, reservedAt, delayMs, known: { state: handled.state, revision: handled.revision, position: handled.position } };
  }

  /**
   * Counts one attempt on each key at once (their appends share one commit: each commit waits for the
   * disk), or refuses with RATE_LIMITED when any key refuses it; the attempts the others had counted are
   * then withdrawn, so that no attempt stays counted that no password check follows.
   */
  async reserveAll<const Keys extends readonly AttemptKey[]>(
    keys: Keys,
    context: CommandContext,
    known: readonly (KnownStreak | undefined)[] = [],
  ): Promise<{ -readonly [K in keyof Keys]: ReservedAttempt }> {
    const outcomes = await Promise.allSettled(keys.map((key, index) => this.reserve(key, context, known[index])));
    const reserved = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    if (refused === undefined) return reserved as { -readonly [K in keyof Keys]: ReservedAttempt };
    await Promise.all(reserved.map((attempt) => this.withdraw(attempt, context)));
    throw refused.reason;
  }

  /** The reserved attempt had the right password: an account starts afresh, an address no longer counts it. */
  async succeeded(attempt: ReservedAttempt, context: CommandContext): Promise<void> {
    const policy = policies[attempt.key.kind];
    await this.settle(attempt.key, context, attempt.known, (streak, now): SignInAttemptEvent[] => {
      const startsAfresh = attempt.key.kind === 'account' || attempt.key.kind === 'second-step';
      const next = !startsAfresh ? refundAttempt(streak, attempt.reservedAt, now, policy) : isClear(streak) ? undefined : noAttempts;
      return next === undefined ? [] : [{ type: 'SignInAttemptSucceeded', data: { at: now.toISOString(), reservedAt: attempt.reservedAt, streak: next } }];
    });
  }

  /** The reserved attempt was refused before its check: it no longer counts (a lock it set is lifted). */
  private async withdraw(attempt: ReservedAttempt, context: CommandContext): Promise<void> {
    const policy = policies[attempt.key.kind];
    await this.settle(attempt.key, context, attempt.known, (streak, now): SignInAttemptEvent[] => {
      const next = refundAttempt(streak, attempt.reservedAt, now, policy);
      return next === undefined ? [] : [{ type: 'SignInAttemptWithdrawn', data: { at: now.toISOString(), reservedAt: attempt.reservedAt, streak: next } }];
    });
  }

  /**
   * A completed password reset: the account's count and lock are cleared, and its second step's (whoever
   * locked it knew the old password, which no longer works).
   */
  async clearAccount(userId: string, context: CommandContext): Promise<void> {
    for (const key of [this.account(userId), this.secondStep(userId)]) {
      await this.settle(key, context, undefined, (streak, now): SignInAttemptEvent[] =>
        isClear(streak) ? [] : [{ type: 'SignInAttemptsCleared', data: { at: now.toISOString(), reason: 'password-reset', streak: noAttempts } }],
      );
    }
  }

  /**
   * Book-keeping after the outcome, best effort: should it lose every race (a flood on the same key), the
   * attempt simply stays counted, which only errs on the side of the throttle. `known`: where the
   * reservation left the key; decided on first without a read, or on this node's later append to it.
   */
  private async settle(
    key: AttemptKey,
    context: CommandContext,
    known: KnownStreak | undefined,
    decide: (streak: AttemptStreak, now: Date) => SignInAttemptEvent[],
  ): Promise<void> {
    try {
      const options = this.commandOptions(key, context, known);
      await handleCommand(this.store, signInAttemptsStream(key), (streak: AttemptStreak) => decide(streak, this.clock.now()), options);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }

  /**
   * handleCommand's options for a command on the key, written out: a sign-in runs four of them, and
   * spreading the fold and the metadata into an object literal cost about 6 us each.
   */
  private commandOptions(key: AttemptKey, context: CommandContext, known: KnownStreak | undefined): CommandHandlerOptions<AttemptStreak, SignInAttemptEvent> {
    return {
      initialState: attemptsFold.initialState,
      evolve: attemptsFold.evolve,
      lastEventHoldsState: true,
      cache: this.latest,
      metadata: eventMetadata(context),
      maxAttempts: policies[key.kind].lockAfter + 10,
      known: this.startingFrom(key, known),
    };
  }

  /** The newer of what the caller knows of the key and where this node's last append left it; none: read it. */
  private startingFrom(key: AttemptKey, known: KnownStreak | undefined): KnownStreak | undefined {
    const remembered = this.latest.get(signInAttemptsStream(key));
    if (remembered === undefined) return known;
    return known?.revision !== undefined && known.revision > remembered.revision ? known : remembered;
  }
}
