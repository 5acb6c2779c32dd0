// POST /login: username or e-mail and password. Every failure looks the same (same error), and costs the
// same work whether or not the name is anyone's: the same store reads and appends, one argon2id check
// (against a dummy hash for nobody). Attempts are counted per client address and per account (or per
// name that matches no account) BEFORE the password is checked, in the event store (sign-in-attempts.ts):
// however many arrive at once, on however many API nodes, at most `lockAfter` are checked per run.
import type { CommandContext } from '#application';
import type { Clock } from '../clock.js';
import { InvalidCredentials, secondStepAwaited } from '#domain';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { OpenedSession, Sessions } from '../sessions/sessions.js';
import { parseLoginName } from '../user/identifiers.js';
import type { UserClaims } from '../user/user-claims.js';
import type { Users } from '../user/users.js';
import type { SignInAttempts } from './sign-in-attempts.js';

export type PasswordCredentials = { username: string; password: string };

/** Who is signing in: attempts are counted per client address too, so the address must be known. */
export type SignInContext = CommandContext & { readonly origin: { readonly clientIp: string } };

/** Whether an organization the user belongs to requires two-step sign-in (the API asks its read model). */
export type TwoStepRequirement = (userId: string) => boolean;

export class PasswordSignIn {
  constructor(
    private readonly users: Users,
    private readonly claims: UserClaims,
    private readonly hasher: PasswordHasher,
    private readonly sessions: Sessions,
    private readonly clock: Clock,
    private readonly attempts: SignInAttempts,
  ) {}

  /**
   * The session a right password opens: a full one, or a half-open one for the second step when the user has a
   * second factor, or for setting one up when an organization of theirs requires it.
   */
  async signIn(credentials: PasswordCredentials, context: SignInContext, twoStepRequired?: TwoStepRequirement): Promise<OpenedSession> {
    const name = parseLoginName(credentials.username);
    const user = await this.claims.findUserEvenly(name.kind, name.value);
    const key = user === undefined ? this.attempts.name(name) : this.attempts.account(user.userId);
    const address = this.attempts.address(context.origin.clientIp);
    // Nothing is recorded for an attempt that is refused: a locked account, name or address is refused by
    // a read before anything is counted, and an attempt that one key refuses in a race is withdrawn from
    // the other (a locked address cannot lock anyone out). So every attempt that stays counted is one
    // that a password check follows.
    // Each key is read once: its reservation is decided on what its lock check read (appended at that
    // revision, so anything recorded meanwhile makes it decide again).
    const knownKey = await this.attempts.refuseIfLocked(key);
    const knownAddress = await this.attempts.refuseIfLocked(address);
    const [fromAddress, forKey] = await this.attempts.reserveAll([address, key], context, [knownAddress, knownKey]);
    // Slow every attempt once they pile up, before the outcome is known, so cutting the connection
    // early tells an attacker nothing.
    const delayMs = Math.max(fromAddress.delayMs, forKey.delayMs);
    if (delayMs > 0) await this.clock.sleep(delayMs);

    const passwordHash = user?.passwordHash ?? null;
    const valid = passwordHash === null ? await this.hasher.verifyNobody(credentials.password) : await this.hasher.verify(passwordHash, credentials.password);
    // A failure records nothing more: its attempts were counted before the check, on every path alike.
    if (user === undefined || !valid) throw new InvalidCredentials();

    if (passwordHash !== null && this.hasher.needsRehash(passwordHash)) {
      const upgraded = await this.hasher.hash(credentials.password);
      await this.users.handle(user.userId, { type: 'SetPassword', data: { passwordHash: upgraded } }, context);
    }
    // The session, the user's SignedIn and both attempts settled, written at once, share one commit (the
    // store's group commit): each commit waits for the disk, and a sign-in costs its check plus its commits.
    const awaiting = secondStepAwaited(user.secondFactors, twoStepRequired?.(user.userId) === true);
    const [opened] = await Promise.all([
      this.sessions.open(user.userId, 'password', { ...context, actor: `user:${user.userId}` }, awaiting),
      this.attempts.succeeded(forKey, context),
      this.attempts.succeeded(fromAddress, context),
    ]);
    return opened;
  }
}
