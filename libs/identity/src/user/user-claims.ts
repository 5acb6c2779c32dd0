// Unique e-mail addresses, usernames and Google accounts, enforced by the event store itself:
// each value owns a stream (`identity-<kind>-<sha256 of the value>`) that is created with
// expected revision 'no_stream', so two API nodes can never give one value to two users. The same
// stream answers lookups, strongly consistent, with no index to keep in step. An address's stream
// also fixes the id of its user before they register (a member added by e-mail): see reserveEmail.
import { randomUUID } from 'node:crypto';
import { WrongExpectedRevisionError, type EventStore, type ExpectedRevision } from '#event-store';
import { IdentityError } from '../errors.js';
import { sha256Hex } from '../hashing.js';
import { eventMetadata, type RequestContext } from '../metadata.js';
import type { User } from './user.js';
import type { Users } from './users.js';

export type ClaimKind = 'email' | 'username' | 'google';

/** The value is this user's: they registered with it, or linked it. */
export type IdentifierClaimed = { type: 'IdentifierClaimed'; data: { kind: ClaimKind; userId: string } };
/** An address was given to a member before anyone registered with it: userId is the id its user will have. */
export type IdentifierReserved = { type: 'IdentifierReserved'; data: { kind: 'email'; userId: string } };
export type ClaimEvent = IdentifierClaimed | IdentifierReserved;

export const claimStream = (kind: ClaimKind, normalizedValue: string): string =>
  `identity-${kind}-${sha256Hex(normalizedValue)}`;

/** Where a value's stream stands: who holds it now, and whether it began as a reservation (an invitation). */
type ClaimState = { userId: string; lastType: ClaimEvent['type']; revision: bigint; reserved: boolean };

const taken = (kind: ClaimKind): IdentityError =>
  new IdentityError('DUPLICATE', `This ${kind === 'google' ? 'Google account' : kind === 'email' ? 'e-mail address' : kind} is already taken.`, { field: kind });

const claimedUserId = (data: unknown): string | undefined =>
  typeof data === 'object' && data !== null && typeof (data as { userId?: unknown }).userId === 'string'
    ? (data as { userId: string }).userId
    : undefined;

const holds = (user: User, kind: ClaimKind, value: string): boolean =>
  kind === 'email' ? user.email === value : kind === 'username' ? user.username === value : user.googleSubject === value;

/** Attempts at taking an address for a registration; each lost race means the stream moved on. */
const maxEmailClaimAttempts = 3;

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
    const holder = await this.find(kind, normalizedValue);
    return holder === undefined ? undefined : this.confirmed(holder, kind, normalizedValue);
  }

  /** Whether an id was reserved for this address when a member was added by it (whether or not they registered since). */
  async wasReserved(email: string): Promise<boolean> {
    return (await this.current('email', email))?.reserved === true;
  }

  /**
   * The id of whoever registers with this address: the registered user's, the one reserved for it,
   * else a new one reserved now (IdentifierReserved). Concurrent callers agree on one id: the store
   * takes one first event and the others read it.
   */
  async reserveEmail(email: string, context: RequestContext): Promise<string> {
    const holder = await this.find('email', email);
    if (holder !== undefined) return holder;
    const userId = randomUUID();
    if (await this.tryAppend('email', email, { type: 'IdentifierReserved', data: { kind: 'email', userId } }, 'no_stream', context)) {
      return userId;
    }
    const winner = await this.find('email', email);
    if (winner === undefined) throw new Error(`The claim stream of an address was created and is empty: ${claimStream('email', email)}`);
    return winner;
  }

  /**
   * Takes an address for a registration and answers the id to register: the one reserved for the
   * address (invited: true) or left by a registration that never finished, else a new one.
   * DUPLICATE when a registered user holds it. The id of an address never changes, so concurrent
   * registrations of one address all target one user stream, whose own append lets one win.
   */
  async claimEmail(email: string, context: RequestContext): Promise<{ userId: string; invited: boolean }> {
    for (let attempt = 1; attempt <= maxEmailClaimAttempts; attempt += 1) {
      const current = await this.current('email', email);
      if (current === undefined) {
        const userId = randomUUID();
        if (await this.tryAppend('email', email, { type: 'IdentifierClaimed', data: { kind: 'email', userId } }, 'no_stream', context)) {
          return { userId, invited: false };
        }
        continue;
      }
      if ((await this.confirmed(current.userId, 'email', email)) !== undefined) throw taken('email');
      const adopted = { userId: current.userId, invited: current.reserved };
      if (current.lastType === 'IdentifierClaimed') return adopted;
      const claimed: IdentifierClaimed = { type: 'IdentifierClaimed', data: { kind: 'email', userId: current.userId } };
      if (await this.tryAppend('email', email, claimed, current.revision, context)) return adopted;
    }
    throw taken('email');
  }

  /**
   * Gives a username or Google account to the user, or refuses with DUPLICATE. A claim that the
   * holder's stream does not confirm (the process stopped between the two appends, or the
   * registration lost to another) is stale and may be taken over.
   */
  async claim(kind: 'username' | 'google', normalizedValue: string, userId: string, context: RequestContext): Promise<void> {
    const current = await this.current(kind, normalizedValue);
    if (current?.userId === userId) return;
    if (current !== undefined && (await this.confirmed(current.userId, kind, normalizedValue)) !== undefined) throw taken(kind);
    const event: IdentifierClaimed = { type: 'IdentifierClaimed', data: { kind, userId } };
    if (!(await this.tryAppend(kind, normalizedValue, event, current?.revision ?? 'no_stream', context))) throw taken(kind);
  }

  private async current(kind: ClaimKind, normalizedValue: string): Promise<ClaimState | undefined> {
    const result = await this.store.readStream(claimStream(kind, normalizedValue));
    if (!result.found) return undefined;
    const first = result.events[0];
    const last = result.events.at(-1);
    const userId = claimedUserId(last?.data);
    if (first === undefined || last === undefined || userId === undefined) return undefined;
    return {
      userId,
      lastType: last.type === 'IdentifierReserved' ? 'IdentifierReserved' : 'IdentifierClaimed',
      revision: last.revision,
      reserved: first.type === 'IdentifierReserved',
    };
  }

  private async confirmed(userId: string, kind: ClaimKind, normalizedValue: string): Promise<User | undefined> {
    const { state } = await this.users.load(userId);
    return state.status === 'registered' && holds(state, kind, normalizedValue) ? state : undefined;
  }

  /** Appends at the expected revision; false when another append got there first. */
  private async tryAppend(
    kind: ClaimKind,
    normalizedValue: string,
    event: ClaimEvent,
    expected: ExpectedRevision,
    context: RequestContext,
  ): Promise<boolean> {
    try {
      await this.store.append(claimStream(kind, normalizedValue), [{ id: randomUUID(), ...event, metadata: eventMetadata(context) }], expected);
      return true;
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return false;
      throw error;
    }
  }
}
