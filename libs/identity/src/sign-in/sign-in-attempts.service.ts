// One stream per throttle key, so that every API node sharing the store counts the same attempts.
import {
  FoldedStateCache,
  handleCommand,
  loadStream,
  type CommandContext,
  type CommandOptions,
  type LoadedStream,
} from '#application';
import { WrongExpectedRevisionError, type EventStore } from '#event-store';
import {
  attemptKeyId,
  attemptPolicies,
  lockedFor,
  reservedAttemptDelay,
  RateLimited,
  signInAttemptsDecider,
  signInAttemptsStream,
  type AttemptKey,
  type AttemptStreak,
  type SignInAttemptCommand,
} from '#domain';
import type { Clock } from '../clock.js';
import { hmacHex } from '../hashing.js';
import type { LoginName } from '../user/identifiers.js';
import { clientAddressKey } from './client-address.js';

export { signInAttemptsStream, type AttemptKey } from '#domain';

const REMEMBERED_KEYS = 10_000;

export type KnownStreak = Omit<LoadedStream<AttemptStreak>, 'recorded'>;

export type ReservedAttempt = { key: AttemptKey; reservedAt: string; delayMs: number; known: KnownStreak };

export class SignInAttempts {
  // Only a starting point for settling; the lock check before the password is always a read, the same on every path.
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

  /** Records nothing: attempts at a locked account must not cost a stored event that no password check paid for. */
  async refuseIfLocked(key: AttemptKey): Promise<KnownStreak> {
    const loaded = await loadStream(this.store, signInAttemptsDecider, attemptKeyId(key));
    const lockedMs = lockedFor(loaded.state, this.clock.now());
    if (lockedMs > 0) throw new RateLimited(Math.ceil(lockedMs / 1000));
    return { state: loaded.state, revision: loaded.revision, position: loaded.position };
  }

  /** Counted before the check. Too many lost races is refused as RATE_LIMITED, never answered with a conflict. */
  async reserve(key: AttemptKey, context: CommandContext, known?: KnownStreak): Promise<ReservedAttempt> {
    const now = this.clock.now();
    let handled: KnownStreak;
    try {
      handled = await this.command(
        key,
        { type: 'ReserveSignInAttempt', data: { kind: key.kind, now } },
        context,
        known,
      );
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) throw new RateLimited(1);
      throw error;
    }
    const delayMs = reservedAttemptDelay(handled.state, attemptPolicies[key.kind]);
    return {
      key,
      reservedAt: now.toISOString(),
      delayMs,
      known: { state: handled.state, revision: handled.revision, position: handled.position },
    };
  }

  /**
   * When any key refuses, the others' attempts are withdrawn: no attempt stays counted that no password check follows.
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

  async succeeded(attempt: ReservedAttempt, context: CommandContext): Promise<void> {
    await this.settle(attempt, 'succeeded', context);
  }

  /** For a name that matches no account too, so that a wrong password costs the same either way. */
  async failed(attempt: ReservedAttempt, context: CommandContext): Promise<void> {
    await this.settle(attempt, 'failed', context);
  }

  private async withdraw(attempt: ReservedAttempt, context: CommandContext): Promise<void> {
    await this.settle(attempt, 'withdrawn', context);
  }

  /** Clears the second step's lock too: whoever locked it knew the old password, which no longer works. */
  async clearAccount(userId: string, context: CommandContext): Promise<void> {
    for (const key of [this.account(userId), this.secondStep(userId)])
      await this.bestEffort(key, { type: 'ClearSignInAttempts', data: { now: this.clock.now() } }, context);
  }

  private settle(
    { key, reservedAt, known }: ReservedAttempt,
    outcome: 'succeeded' | 'failed' | 'withdrawn',
    context: CommandContext,
  ): Promise<void> {
    return this.bestEffort(
      key,
      { type: 'SettleSignInAttempt', data: { kind: key.kind, outcome, reservedAt, now: this.clock.now() } },
      context,
      known,
    );
  }

  /** Losing every race leaves the attempt counted, which only errs on the side of the throttle. */
  private async bestEffort(
    key: AttemptKey,
    command: SignInAttemptCommand,
    context: CommandContext,
    known?: KnownStreak,
  ): Promise<void> {
    try {
      await this.command(key, command, context, known);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }

  private command(
    key: AttemptKey,
    command: SignInAttemptCommand,
    context: CommandContext,
    known: KnownStreak | undefined,
  ) {
    const options: CommandOptions<AttemptStreak> = {
      cache: this.latest,
      known: this.startingFrom(key, known),
    };
    return handleCommand(this.store, signInAttemptsDecider, attemptKeyId(key), command, context, options);
  }

  private startingFrom(key: AttemptKey, known: KnownStreak | undefined): KnownStreak | undefined {
    const remembered = this.latest.get(signInAttemptsStream(key));
    if (remembered === undefined) return known;
    return known?.revision !== undefined && known.revision > remembered.revision ? known : remembered;
  }
}
