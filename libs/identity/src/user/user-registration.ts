// Creating a user (the command line's user:create, the demo seed): unique e-mail and username,
// the password policy, an argon2id hash.
import { randomUUID } from 'node:crypto';
import { IdentityError } from '../errors.js';
import type { RequestContext } from '../metadata.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordPolicyViolation } from '../passwords/password-policy.js';
import { isValidEmail, isValidUsername, normalizeEmail, normalizeUsername } from './identifiers.js';
import type { UserClaims } from './user-claims.js';
import type { Users } from './users.js';

export type NewUser = { email: string; username?: string; password?: string };

const taken = (field: 'email' | 'username') =>
  new IdentityError('DUPLICATE', `This ${field === 'email' ? 'e-mail address' : 'username'} is already taken.`, { field });

export class UserRegistration {
  constructor(
    private readonly users: Users,
    private readonly claims: UserClaims,
    private readonly hasher: PasswordHasher,
  ) {}

  /**
   * Refuses, without writing anything, what register would refuse (an invalid or taken address or
   * username, a password the policy refuses); answers the normalized address.
   */
  async check(newUser: NewUser): Promise<{ email: string; username: string | undefined }> {
    const email = normalizeEmail(newUser.email);
    if (!isValidEmail(email)) throw new IdentityError('VALIDATION_FAILED', 'The e-mail address is not valid.', { field: 'email' });
    const username = newUser.username === undefined ? undefined : normalizeUsername(newUser.username);
    if (username !== undefined && !isValidUsername(username)) {
      throw new IdentityError('VALIDATION_FAILED', 'A username is 2 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit.', { field: 'username' });
    }
    if (newUser.password !== undefined) {
      const violation = passwordPolicyViolation(newUser.password, { email, username: username ?? null });
      if (violation !== null) throw new IdentityError('VALIDATION_FAILED', violation, { field: 'password' });
    }
    if (await this.isTaken('email', email)) throw taken('email');
    if (username !== undefined && (await this.isTaken('username', username))) throw taken('username');
    return { email, username };
  }

  /** userId: one chosen beforehand (e.g. already given to the membership); a new one by default. */
  async register(newUser: NewUser, context: RequestContext, userId: string = randomUUID()): Promise<{ userId: string; email: string }> {
    const { email, username } = await this.check(newUser);
    const passwordHash = newUser.password === undefined ? undefined : await this.hasher.hash(newUser.password);
    await this.claims.claim('email', email, userId, context);
    if (username !== undefined) await this.claims.claim('username', username, userId, context);
    await this.users.handle(
      userId,
      {
        type: 'RegisterUser',
        data: { userId, email, ...(username === undefined ? {} : { username }), ...(passwordHash === undefined ? {} : { passwordHash }) },
      },
      context,
    );
    return { userId, email };
  }

  private async isTaken(kind: 'email' | 'username', value: string): Promise<boolean> {
    const holder = await this.claims.find(kind, value);
    return holder !== undefined && (await this.users.load(holder)).state.status === 'registered';
  }
}
