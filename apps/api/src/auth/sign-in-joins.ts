// What happens once a person is fully signed in (every way in, after any second step): organizations they join by
// their address (docs/directory.md, Joining by verified domain). Asked by BrowserSessions, answered by whichever
// module decides it (single sign-on's domains), so that sign-in depends on no such module.
import type { CommandContext } from '#application';

export const SIGN_IN_JOINS = Symbol('SIGN_IN_JOINS');

/** The organization a sign-in would make the person a member of, and whether it requires two-step sign-in. */
export type JoinTarget = { organizationId: string; name: string; requiresTwoStep: boolean };

export interface SignInJoins {
  /** Never throws: a sign-in stands whatever happens here. */
  afterSignIn(userId: string, context: CommandContext): Promise<void>;
  /**
   * Where signing in would make the person a member: a way in that needs a membership first asks, and the second
   * step asks for that organization's requirement as for a member's (the person joins only once past it).
   */
  wouldJoin(userId: string): Promise<JoinTarget | undefined>;
  /** The organization the person's address would join, had it not enforced its single sign-on: they join through it. */
  joinsThroughSignOnOnly(userId: string): Promise<string | undefined>;
}
