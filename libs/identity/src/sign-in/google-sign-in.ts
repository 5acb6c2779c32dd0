// Maps a Google account to a Chorus user: by Google's subject id, and by e-mail address only
// when Google vouches for it (email_verified), in which case the account is linked for next time.
// Nobody signs up by Google: only a member added by that address registers at their first sign-in.
import { handleDecision, type CommandContext } from '#application';
import { userStream } from '#domain';
import type { EventStore } from '#event-store';
import { normalizeEmail } from '../user/identifiers.js';
import type { UserClaims } from '../user/user-claims.js';
import type { UserRegistration } from '../user/user-registration.js';
import type { Users } from '../user/users.js';

export type GoogleAccount = { subject: string; email: string | undefined; emailVerified: boolean };

export class GoogleSignIn {
  constructor(
    private readonly store: EventStore,
    private readonly users: Users,
    private readonly claims: UserClaims,
    private readonly registration: UserRegistration,
  ) {}

  /** The user this Google account signs in as, or undefined when it is nobody's. */
  async findUser(account: GoogleAccount, context: CommandContext): Promise<string | undefined> {
    if (account.subject === '') return undefined;
    const linked = await this.claims.findUser('google', account.subject);
    if (linked !== undefined) return linked.userId;
    if (!account.emailVerified || account.email === undefined) return undefined;

    const email = normalizeEmail(account.email);
    const user =
      (await this.claims.findUser('email', email)) ??
      ((await this.registration.registerInvited(email, context))
        ? await this.claims.findUser('email', email)
        : undefined);
    // A user already linked to another Google account is not taken over by a second one.
    if (user === undefined || (user.googleSubject !== null && user.googleSubject !== account.subject)) return undefined;
    // The account's claim and its link on the user in one append.
    await handleDecision(
      this.store,
      context,
      { serializedOn: userStream(user.userId), commandType: 'LinkGoogleAccount' },
      async (reads) => {
        const claim = await this.claims.identifierClaimIn(reads, 'google', account.subject, user.userId);
        const linked = (await this.users.readFor(reads, user.userId)).decide({
          type: 'LinkGoogleAccount',
          data: { subject: account.subject, email },
        });
        return { changes: [claim, linked], result: undefined };
      },
    );
    return user.userId;
  }
}
