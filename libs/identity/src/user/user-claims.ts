// Unique e-mail addresses, usernames and Google accounts, enforced by the event store itself:
// each value owns a stream (`identity-<kind>-<sha256 of the value>`) that is created with
// expected revision 'no_stream', so two API nodes can never give one value to two users. The same
// stream answers lookups, strongly consistent, with no index to keep in step. An address's stream
// also fixes the id of its user before they register (a member added by e-mail): see reserveEmail.
import { randomUUID } from 'node:crypto';
import { eventMetadata, handleCommand, loadStream, type CommandContext, type LoadedStream, type StreamFold } from '#application';
import { WrongExpectedRevisionError, type EventStore } from '#event-store';
import { DomainError, type User } from '#domain';
import { sha256Hex } from '../hashing.js';
import { isValidEmail, normalizeEmail, normalizeUsername } from './identifiers.js';
import type { Users } from './users.js';

export type ClaimKind = 'email' | 'username' | 'google';

/** The value is this user's: they registered with it, or linked it. */
export type IdentifierClaimed = { type: 'IdentifierClaimed'; data: { kind: ClaimKind; userId: string } };
/** An address was given to a member before anyone registered with it: userId is the id its user will have. */
export type IdentifierReserved = { type: 'IdentifierReserved'; data: { kind: 'email'; userId: string } };
export type ClaimEvent = IdentifierClaimed | IdentifierReserved;

export const claimStream = (kind: ClaimKind, normalizedValue: string): string =>
  `identity-${kind}-${sha256Hex(normalizedValue)}`;

const claimedUserId = (data: unknown): string | undefined =>
  typeof data === 'object' && data !== null && typeof (data as { userId?: unknown }).userId === 'string'
    ? (data as { userId: string }).userId
    : undefined;

/** Where a value's stream stands: who holds it now, and whether it began as a reservation (an invitation). */
type ClaimState = { userId: string; lastType: ClaimEvent['type']; reserved: boolean } | undefined;

const claimFold: StreamFold<ClaimState, ClaimEvent> = {
  initialState: undefined,
  evolve: (state, event) => {
    const userId = claimedUserId(event.data);
    if (userId === undefined) return state;
    return { userId, lastType: event.type, reserved: state?.reserved ?? event.type === 'IdentifierReserved' };
  },
};

/** A stream taken not to exist, for a first decision made without reading it (handleCommand's known). */
const nothingYet: Omit<LoadedStream<ClaimState>, 'recorded'> = { state: undefined, revision: undefined, position: undefined };

/** The holder after a decision that leaves one (the value's own id, or the winner's). */
function holder(state: ClaimState, stream: string): NonNullable<ClaimState> {
  if (state === undefined) throw new Error(`The claim stream ${stream} holds no user id`);
  return state;
}

const taken = (kind: ClaimKind): DomainError =>
  new DomainError('DUPLICATE', `This ${kind === 'google' ? 'Google account' : kind === 'email' ? 'e-mail address' : kind} is already taken.`, { field: kind });

const holds = (user: User, kind: ClaimKind, value: string): boolean =>
  kind === 'email' ? user.email === value : kind === 'username' ? user.username === value : user.googleSubject === value;

export class UserClaims {
  constructor(
    private readonly store: EventStore,
    private readonly users: Users,
  ) {}

  /** The id holding the value, if any: a user's, or for an address the id reserved for its user. */
  async find(kind: ClaimKind, normalizedValue: string): Promise<string | undefined> {
    return (await this.current(kind, normalizedValue))?.userId;
  }

  /**
   * The registered user holding the value. A claim counts only when the user's own stream agrees:
   * one left by a registration that lost a race or stopped halfway finds nobody.
   */
  async findUser(kind: ClaimKind, normalizedValue: string): Promise<User | undefined> {
    const userId = await this.find(kind, normalizedValue);
    return userId === undefined ? undefined : this.confirmed(userId, kind, normalizedValue);
  }

  /**
   * findUser, with the same store reads whether or not anyone holds the value (the claim's stream, then
   * a user's stream: a random id's, which no one has, when the value is nobody's), so that a sign-in
   * cannot tell by its timing which names are accounts.
   */
  async findUserEvenly(kind: ClaimKind, normalizedValue: string): Promise<User | undefined> {
    const userId = await this.find(kind, normalizedValue);
    return this.confirmed(userId ?? randomUUID(), kind, normalizedValue);
  }

  /** Whether an id was reserved for this address when a member was added by it (whether or not they registered since). */
  async wasReserved(email: string): Promise<boolean> {
    return (await this.current('email', email))?.reserved === true;
  }

  /**
   * The id of whoever registers with this address: the registered user's, the one reserved for it,
   * else a new one reserved now (IdentifierReserved). Concurrent callers agree on one id: the store
   * takes one first event and the others decide again on it. Also says whether the id is a registered
   * user's (read only when the address was claimed, not reserved). `proposed`: the id to reserve when none is.
   */
  async reserveEmailFor(email: string, context: CommandContext, proposed: string = randomUUID()): Promise<{ userId: string; registered: boolean }> {
    const userId = proposed;
    const reserved: IdentifierReserved = { type: 'IdentifierReserved', data: { kind: 'email', userId } };
    const stream = claimStream('email', email);
    const { state } = await handleCommand(this.store, stream, (claim: ClaimState) => (claim === undefined ? [reserved] : []), {
      ...claimFold,
      metadata: eventMetadata(context),
      // Most addresses added are new: reserve at `no_stream` without reading first; an address that has a
      // stream fails that append and is read and decided on as usual.
      known: nothingYet,
    });
    const claim = holder(state, stream);
    // A registration claims the address before it writes the user: only then can the id be a registered user's.
    const registered = claim.lastType === 'IdentifierClaimed' && (await this.users.load(claim.userId)).state.status === 'registered';
    return { userId: claim.userId, registered };
  }

  /**
   * Takes an address for a registration and answers the id to register: the one reserved for the
   * address (invited: true) or left by a registration that never finished, else a new one.
   * DUPLICATE when a registered user holds it. The id of an address never changes, so concurrent
   * registrations of one address all target one user stream, whose own append lets one win.
   */
  async claimEmail(email: string, context: CommandContext): Promise<{ userId: string; invited: boolean }> {
    const fresh = randomUUID();
    const stream = claimStream('email', email);
    const claimed = (userId: string): IdentifierClaimed => ({ type: 'IdentifierClaimed', data: { kind: 'email', userId } });
    const { state } = await handleCommand(
      this.store,
      stream,
      async (claim: ClaimState) => {
        if (claim === undefined) return [claimed(fresh)];
        if ((await this.confirmed(claim.userId, 'email', email)) !== undefined) throw taken('email');
        return claim.lastType === 'IdentifierClaimed' ? [] : [claimed(claim.userId)];
      },
      { ...claimFold, metadata: eventMetadata(context) },
    );
    const { userId, reserved } = holder(state, stream);
    return { userId, invited: reserved };
  }

  /**
   * Gives a username or Google account to the user, or refuses with DUPLICATE. A claim that the
   * holder's stream does not confirm (the process stopped between the two appends, or the
   * registration lost to another) is stale and may be taken over; a claim lost to a concurrent one
   * is not decided again (its registration may be running now, unconfirmed as yet): DUPLICATE.
   */
  async claim(kind: 'username' | 'google', normalizedValue: string, userId: string, context: CommandContext): Promise<void> {
    const claimed: IdentifierClaimed = { type: 'IdentifierClaimed', data: { kind, userId } };
    try {
      await handleCommand(
        this.store,
        claimStream(kind, normalizedValue),
        async (claim: ClaimState) => {
          if (claim?.userId === userId) return [];
          if (claim !== undefined && (await this.confirmed(claim.userId, kind, normalizedValue)) !== undefined) throw taken(kind);
          return [claimed];
        },
        { ...claimFold, metadata: eventMetadata(context), maxAttempts: 1 },
      );
    } catch (error) {
      throw error instanceof WrongExpectedRevisionError ? taken(kind) : error;
    }
  }

  private async current(kind: ClaimKind, normalizedValue: string): Promise<ClaimState> {
    return (await loadStream(this.store, claimStream(kind, normalizedValue), claimFold)).state;
  }

  private async confirmed(userId: string, kind: ClaimKind, normalizedValue: string): Promise<User | undefined> {
    const { state } = await this.users.load(userId);
    return state.status === 'registered' && holds(state, kind, normalizedValue) ? state : undefined;
  }
}

// Questions about users for the rest of the API, answered from the claims: whose address is this, and who is this user.

export type UserProfile = { id: string; email: string; username: string | null; googleLinked: boolean };

export class UserDirectory {
  constructor(
    private readonly users: Users,
    private readonly claims: UserClaims,
  ) {}

  /** The registered user with this address, if any (any case); records nothing. */
  async findUserIdByEmail(email: string): Promise<string | undefined> {
    return (await this.claims.findUser('email', normalizeEmail(email)))?.userId;
  }

  /** The registered user with this username, if any; records nothing. */
  async findUserIdByUsername(username: string): Promise<string | undefined> {
    const normalized = normalizeUsername(username);
    return normalized === '' ? undefined : (await this.claims.findUser('username', normalized))?.userId;
  }

  /** The profile of the registered user with this username, if any (their stream read once); records nothing. */
  async profileByUsername(username: string): Promise<UserProfile | undefined> {
    const normalized = normalizeUsername(username);
    const user = normalized === '' ? undefined : await this.claims.findUser('username', normalized);
    return user === undefined ? undefined : profileOf(user);
  }

  /**
   * The user id to give a member added by this address: the registered user's, else the id reserved
   * for the address, reserving one now (IdentifierReserved) when it has none. Whoever registers with
   * the address later gets this id, so the membership is theirs. An address no one can register
   * with gets a new id and no reservation: there is nobody to connect it to.
   */
  async userIdForEmail(email: string, context: CommandContext): Promise<string> {
    return (await this.idOfEmail(email)) ?? this.reserveIdForEmail(email, randomUUID(), context);
  }

  /** The id the address has (its registered user's, or the one reserved for it), if any; records nothing. */
  async idOfEmail(email: string): Promise<string | undefined> {
    const normalized = normalizeEmail(email);
    return isValidEmail(normalized) ? this.claims.find('email', normalized) : undefined;
  }

  /**
   * Reserves `proposed` for the address unless it has an id already, and answers the id it has now (the
   * proposed one, or whoever's got there first). An address no one can register with keeps `proposed`, unreserved.
   */
  async reserveIdForEmail(email: string, proposed: string, context: CommandContext): Promise<string> {
    const normalized = normalizeEmail(email);
    return isValidEmail(normalized) ? (await this.claims.reserveEmailFor(normalized, context, proposed)).userId : proposed;
  }

  async profile(userId: string): Promise<UserProfile | undefined> {
    const { state } = await this.users.load(userId);
    return state.status === 'unregistered' ? undefined : profileOf(state);
  }
}

const profileOf = (user: User): UserProfile => ({ id: user.userId, email: user.email, username: user.username, googleLinked: user.googleSubject !== null });
