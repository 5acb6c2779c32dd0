// Maps a Google account to a Chorus user: by Google's subject id, and by e-mail address only
// when Google vouches for it (email_verified), in which case the account is linked for next time.
import type { RequestContext } from '../metadata.js';
import { normalizeEmail } from '../user/identifiers.js';
import type { UserClaims } from '../user/user-claims.js';
import type { Users } from '../user/users.js';

export type GoogleAccount = { subject: string; email: string | undefined; emailVerified: boolean };

export class GoogleSignIn {
  constructor(
    private readonly users: Users,
    private readonly claims: UserClaims,
  ) {}

  /** The user this Google account signs in as, or undefined when it is nobody's. */
  async findUser(account: GoogleAccount, context: RequestContext): Promise<string | undefined> {
    if (account.subject === '') return undefined;
    const linked = await this.claims.find('google', account.subject);
    if (linked !== undefined && (await this.isRegistered(linked))) return linked;
    if (!account.emailVerified || account.email === undefined) return undefined;

    const email = normalizeEmail(account.email);
    const userId = await this.claims.find('email', email);
    if (userId === undefined) return undefined;
    const { state } = await this.users.load(userId);
    // A user already linked to another Google account is not taken over by a second one.
    if (state.status !== 'registered' || (state.googleSubject !== null && state.googleSubject !== account.subject)) {
      return undefined;
    }
    await this.claims.claim('google', account.subject, userId, context);
    await this.users.handle(userId, { type: 'LinkGoogleAccount', data: { subject: account.subject, email } }, context);
    return userId;
  }

  private async isRegistered(userId: string): Promise<boolean> {
    return (await this.users.load(userId)).state.status === 'registered';
  }
}
