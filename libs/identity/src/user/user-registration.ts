// A user registers with the id their address already has, so memberships given to it before are theirs.
import { randomUUID } from 'node:crypto';
import { handleDecision, type CommandContext } from '#application';
import type { EventStore } from '#event-store';
import { DomainError, isEmailAddress } from '#domain';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordPolicyViolation } from '../passwords/password-policy.js';
import { isValidUsername, normalizeEmail, normalizeUsername } from './identifiers.js';
import type { UserClaims } from './user-claims.js';
import type { Users } from './users.js';

export type NewUser = { email: string; username?: string; password?: string };

const taken = (field: 'email' | 'username') =>
  new DomainError('DUPLICATE', `This ${field === 'email' ? 'e-mail address' : 'username'} is already taken.`, {
    field,
  });

const isDuplicate = (error: unknown): boolean => error instanceof DomainError && error.code === 'DUPLICATE';

export class UserRegistration {
  constructor(
    private readonly store: EventStore,
    private readonly users: Users,
    private readonly claims: UserClaims,
    private readonly hasher: PasswordHasher,
  ) {}

  /** Refuses what register would, without writing anything. */
  async check(newUser: NewUser): Promise<{ email: string; username: string | undefined }> {
    const email = normalizeEmail(newUser.email);
    if (!isEmailAddress(email))
      throw new DomainError('VALIDATION_FAILED', 'The e-mail address is not valid.', { field: 'email' });
    const username = newUser.username === undefined ? undefined : normalizeUsername(newUser.username);
    if (username !== undefined && !isValidUsername(username)) {
      throw new DomainError(
        'VALIDATION_FAILED',
        'A username is 2 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit.',
        { field: 'username' },
      );
    }
    if (newUser.password !== undefined) {
      const violation = passwordPolicyViolation(newUser.password, { email, username: username ?? null });
      if (violation !== null) throw new DomainError('VALIDATION_FAILED', violation, { field: 'password' });
    }
    if (await this.isTaken('email', email)) throw taken('email');
    if (username !== undefined && (await this.isTaken('username', username))) throw taken('username');
    return { email, username };
  }

  async register(newUser: NewUser, context: CommandContext): Promise<{ userId: string; email: string }> {
    const { email, username } = await this.check(newUser);
    const passwordHash = newUser.password === undefined ? undefined : await this.hasher.hash(newUser.password);
    const fresh = randomUUID();
    // The claims and the user in one append: a claim is never left without the user that confirms it.
    const { result: userId } = await handleDecision(
      this.store,
      context,
      { serializedOn: `register-${email}`, commandType: 'RegisterUser' },
      async (reads) => {
        const address = await this.claims.emailClaimIn(reads, email, fresh);
        const name =
          username === undefined
            ? undefined
            : await this.claims.identifierClaimIn(reads, 'username', username, address.userId);
        const data = {
          userId: address.userId,
          email,
          ...(username === undefined ? {} : { username }),
          ...(passwordHash === undefined ? {} : { passwordHash }),
          ...(address.invited ? { invited: true } : {}),
        };
        const user = await this.users.readFor(reads, address.userId);
        try {
          return {
            changes: [address.change, name, user.decide({ type: 'RegisterUser', data })],
            result: address.userId,
          };
        } catch (error) {
          throw isDuplicate(error) ? taken('email') : error;
        }
      },
    );
    return { userId, email };
  }

  /** False when no member was ever added by the address: nobody may sign themselves up. */
  async registerInvited(email: string, context: CommandContext): Promise<boolean> {
    const normalized = normalizeEmail(email);
    if (!(await this.claims.wasReserved(normalized))) return false;
    try {
      await this.register({ email: normalized }, context);
    } catch (error) {
      if (!isDuplicate(error)) throw error;
    }
    return true;
  }

  private async isTaken(kind: 'email' | 'username', value: string): Promise<boolean> {
    return (await this.claims.findUser(kind, value)) !== undefined;
  }
}
