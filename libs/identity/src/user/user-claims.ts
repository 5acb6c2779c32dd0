// Unique e-mail addresses, usernames and Google accounts: each value owns a stream created at 'no_stream',
// so two API nodes can never give one value to two users, and lookups need no index to keep in step.
import { randomUUID } from 'node:crypto';
import {
  handleCommand,
  loadStream,
  type CommandContext,
  type DecisionReads,
  type LoadedStream,
  type StreamChange,
} from '#application';
import type { EventStore } from '#event-store';
import {
  identifierClaimDecider,
  type ClaimCommand,
  type ClaimKind,
  type ClaimState,
  type User,
  isEmailAddress,
} from '#domain';
import type { IdentifierNames } from './identifier-names.js';
import { normalizeEmail, normalizeUsername } from './identifiers.js';
import type { Users } from './users.js';

export type { ClaimKind } from '#domain';

const nothingYet: Omit<LoadedStream<ClaimState>, 'recorded'> = {
  state: undefined,
  revision: undefined,
  position: undefined,
};

function holder(state: ClaimState, claim: string): NonNullable<ClaimState> {
  if (state === undefined) throw new Error(`The claim ${claim} holds no user id`);
  return state;
}

const holds = (user: User, kind: ClaimKind, value: string): boolean =>
  kind === 'email'
    ? user.email === value
    : kind === 'username'
      ? user.username === value
      : user.googleSubject === value;

/** A claim by its id (its stream is `identifierClaimDecider.streamOf(id)`), whatever value it names. */
export type HeldClaim = { kind: ClaimKind; id: string };

export class UserClaims {
  constructor(
    private readonly store: EventStore,
    private readonly users: Users,
    private readonly names: IdentifierNames,
  ) {}

  /** For an address, also the id reserved for its future user. */
  async find(kind: ClaimKind, normalizedValue: string): Promise<string | undefined> {
    return (await this.current(kind, normalizedValue))?.userId;
  }

  /** A claim counts only when the user's own stream agrees (a registration may have lost a race or stopped halfway). */
  async findUser(kind: ClaimKind, normalizedValue: string): Promise<User | undefined> {
    const userId = await this.find(kind, normalizedValue);
    return userId === undefined ? undefined : this.confirmed(userId, kind, normalizedValue);
  }

  /**
   * Same store reads whether or not anyone holds the value, so that sign-in timing does not tell which names are
   * accounts.
   */
  async findUserEvenly(kind: ClaimKind, normalizedValue: string): Promise<User | undefined> {
    const userId = await this.find(kind, normalizedValue);
    return this.confirmed(userId ?? randomUUID(), kind, normalizedValue);
  }

  async wasReserved(email: string): Promise<boolean> {
    return (await this.current('email', email))?.reserved === true;
  }

  /** Concurrent callers agree on one id: the store takes one first event and the others decide again on it. */
  async reserveEmailFor(
    email: string,
    context: CommandContext,
    proposed: string = randomUUID(),
  ): Promise<{ userId: string; registered: boolean }> {
    // Most addresses added are new: reserve at `no_stream` without reading first.
    const command: ClaimCommand = { type: 'ReserveEmail', data: { userId: proposed } };
    const id = await this.names.idOf('email', email);
    const { state } = await handleCommand(this.store, identifierClaimDecider, id, command, context, {
      known: nothingYet,
    });
    const claim = holder(state, id);
    // A registration claims the address before it writes the user: only then can the id be a registered user's.
    const registered =
      claim.lastType === 'IdentifierClaimed' && (await this.users.load(claim.userId)).state.status === 'registered';
    return { userId: claim.userId, registered };
  }

  /**
   * The address's id in a decision that records a member of it: the id it has (a user's, or one reserved before), or
   * `proposed`, reserved by the change this answers, which the decision appends with the member (one commit). Most
   * addresses added are new: the claim is expected new without a read, and a held one costs the retry that reads it.
   */
  async reservationIn(
    reads: DecisionReads,
    email: string,
    proposed: string,
  ): Promise<{ userId: string; reservation: StreamChange | undefined }> {
    const claim = await reads.stream(identifierClaimDecider, await this.names.idOf('email', email), {
      known: 'no_stream',
    });
    if (claim.state !== undefined) return { userId: claim.state.userId, reservation: undefined };
    return { userId: proposed, reservation: claim.decide({ type: 'ReserveEmail', data: { userId: proposed } }) };
  }

  /**
   * The address's claim in the decision that registers its user: an address's id never changes, so concurrent
   * registrations of it target one user stream, whose append lets one win. `fresh` becomes the id of an address no
   * one holds.
   */
  async emailClaimIn(
    reads: DecisionReads,
    email: string,
    fresh: string,
  ): Promise<{ userId: string; invited: boolean; change: StreamChange }> {
    const claim = await this.claimStreamIn(reads, 'email', email);
    const holderConfirmed = await this.holderConfirmedIn(reads, claim.state, 'email', email);
    const change = claim.decide({ type: 'ClaimEmail', data: { fresh, holderConfirmed } });
    const { userId, reserved } = holder(
      claim.state ?? { userId: fresh, lastType: 'IdentifierClaimed', reserved: false },
      'of the address',
    );
    return { userId, invited: reserved, change };
  }

  /**
   * A username's or Google account's claim, in the decision that records it on its user: a claim its holder's stream
   * does not confirm is stale (a registration stopped halfway) and may be taken over; one it confirms is DUPLICATE.
   */
  async identifierClaimIn(
    reads: DecisionReads,
    kind: 'username' | 'google',
    normalizedValue: string,
    userId: string,
  ): Promise<StreamChange> {
    const claim = await this.claimStreamIn(reads, kind, normalizedValue);
    const holderConfirmed = await this.holderConfirmedIn(reads, claim.state, kind, normalizedValue);
    return claim.decide({ type: 'ClaimIdentifier', data: { kind, userId, holderConfirmed } });
  }

  /** Frees the value if `userId` holds it (an erasure): whoever takes it next is a new person. */
  async release(kind: ClaimKind, normalizedValue: string, userId: string, context: CommandContext): Promise<void> {
    await this.releaseClaim({ kind, id: await this.names.idOf(kind, normalizedValue) }, userId, context);
  }

  /** The same, by the claim's id: for a value no longer readable (its holder's key is gone). */
  async releaseClaim(claim: HeldClaim, userId: string, context: CommandContext): Promise<void> {
    await handleCommand(
      this.store,
      identifierClaimDecider,
      claim.id,
      { type: 'ReleaseIdentifier', data: { kind: claim.kind, userId } },
      context,
    );
  }

  private async claimStreamIn(reads: DecisionReads, kind: ClaimKind, normalizedValue: string) {
    return reads.stream(identifierClaimDecider, await this.names.idOf(kind, normalizedValue));
  }

  /** The holder's own stream, read in the decision: a claim counts only when its user agrees. */
  private async holderConfirmedIn(
    reads: DecisionReads,
    claim: ClaimState,
    kind: ClaimKind,
    normalizedValue: string,
  ): Promise<boolean> {
    if (claim === undefined) return false;
    const { state } = await this.users.readFor(reads, claim.userId);
    return state.status === 'registered' && holds(state, kind, normalizedValue);
  }

  private async current(kind: ClaimKind, normalizedValue: string): Promise<ClaimState> {
    return (await loadStream(this.store, identifierClaimDecider, await this.names.idOf(kind, normalizedValue))).state;
  }

  private async confirmed(userId: string, kind: ClaimKind, normalizedValue: string): Promise<User | undefined> {
    const { state } = await this.users.load(userId);
    return state.status === 'registered' && holds(state, kind, normalizedValue) ? state : undefined;
  }
}

export type UserProfile = { id: string; email: string; username: string | null; googleLinked: boolean };

export class UserDirectory {
  constructor(
    private readonly users: Users,
    private readonly claims: UserClaims,
  ) {}

  async findUserIdByEmail(email: string): Promise<string | undefined> {
    return (await this.claims.findUser('email', normalizeEmail(email)))?.userId;
  }

  async findUserIdByUsername(username: string): Promise<string | undefined> {
    const normalized = normalizeUsername(username);
    return normalized === '' ? undefined : (await this.claims.findUser('username', normalized))?.userId;
  }

  async profileByUsername(username: string): Promise<UserProfile | undefined> {
    const normalized = normalizeUsername(username);
    const user = normalized === '' ? undefined : await this.claims.findUser('username', normalized);
    return user === undefined ? undefined : profileOf(user);
  }

  /** Reserves the id when needed, so whoever registers with the address later owns the membership. */
  async userIdForEmail(email: string, context: CommandContext): Promise<string> {
    return (await this.idOfEmail(email)) ?? this.reserveIdForEmail(email, randomUUID(), context);
  }

  /**
   * In a decision adding a member by address: the address's id, and the reservation to append with the member when
   * the address has none yet (`proposed` becomes its id). An address that is no e-mail address gets `proposed`,
   * unreserved: the member's own rule refuses it.
   */
  async reservationIn(
    reads: DecisionReads,
    email: string,
    proposed: string,
  ): Promise<{ userId: string; reservation: StreamChange | undefined }> {
    const normalized = normalizeEmail(email);
    if (!isEmailAddress(normalized)) return { userId: proposed, reservation: undefined };
    return this.claims.reservationIn(reads, normalized, proposed);
  }

  async idOfEmail(email: string): Promise<string | undefined> {
    const normalized = normalizeEmail(email);
    return isEmailAddress(normalized) ? this.claims.find('email', normalized) : undefined;
  }

  /**
   * Answers the id the address has now, which may be another caller's; an invalid address keeps `proposed`, unreserved.
   */
  async reserveIdForEmail(email: string, proposed: string, context: CommandContext): Promise<string> {
    const normalized = normalizeEmail(email);
    return isEmailAddress(normalized)
      ? (await this.claims.reserveEmailFor(normalized, context, proposed)).userId
      : proposed;
  }

  async profile(userId: string): Promise<UserProfile | undefined> {
    const { state } = await this.users.load(userId);
    return state.status === 'unregistered' ? undefined : profileOf(state);
  }
}

const profileOf = (user: User): UserProfile => ({
  id: user.userId,
  email: user.email,
  username: user.username,
  googleLinked: user.googleSubject !== null,
});
