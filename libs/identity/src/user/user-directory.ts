// Questions about users for the rest of the API: whose address is this, and who is this user.
import { randomUUID } from 'node:crypto';
import type { CommandContext } from '#application';
import { isValidEmail, normalizeEmail, normalizeUsername } from './identifiers.js';
import type { User } from '#domain';
import type { UserClaims } from './user-claims.js';
import type { Users } from './users.js';

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
