// Read-only questions about users, for the rest of the API (e.g. a member's user id by e-mail).
import { normalizeEmail } from './identifiers.js';
import type { UserClaims } from './user-claims.js';
import type { Users } from './users.js';

export type UserProfile = { id: string; email: string; username: string | null; googleLinked: boolean };

export class UserDirectory {
  constructor(
    private readonly users: Users,
    private readonly claims: UserClaims,
  ) {}

  async findUserIdByEmail(email: string): Promise<string | undefined> {
    const userId = await this.claims.find('email', normalizeEmail(email));
    if (userId === undefined) return undefined;
    return (await this.profile(userId)) === undefined ? undefined : userId;
  }

  async profile(userId: string): Promise<UserProfile | undefined> {
    const { state } = await this.users.load(userId);
    if (state.status === 'unregistered') return undefined;
    return { id: state.userId, email: state.email, username: state.username, googleLinked: state.googleSubject !== null };
  }
}
