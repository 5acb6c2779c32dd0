// What happens once a person is fully signed in (every way in, after any second step): organizations they join by
// their address (docs/directory.md, Joining by verified domain). Asked by BrowserSessions, answered by whichever
// module decides it (single sign-on's domains), so that sign-in depends on no such module.
import type { CommandContext } from '#application';

export const SIGN_IN_JOINS = Symbol('SIGN_IN_JOINS');

export interface SignInJoins {
  /** Never throws: a sign-in stands whatever happens here. */
  afterSignIn(userId: string, context: CommandContext): Promise<void>;
  /** Whether signing in would make the person a member somewhere (a way in that needs a membership first asks). */
  wouldJoin(userId: string): Promise<boolean>;
}
