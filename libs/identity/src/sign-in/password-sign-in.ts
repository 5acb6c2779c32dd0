// Every failure looks the same and costs the same work whether or not the name is anyone's. Attempts are
// counted BEFORE the password is checked, so at most `lockAfter` are checked per run across all nodes.
import type { CommandContext } from '#application';
import type { Clock } from '../clock.js';
import { InvalidCredentials, secondStepAwaited } from '#domain';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { OpenedSession, Sessions } from '../sessions/sessions.js';
import { parseLoginName } from '../user/identifiers.js';
import type { UserClaims } from '../user/user-claims.js';
import type { Users } from '../user/users.js';
import type { SignInAttempts } from './sign-in-attempts.service.js';

export type PasswordCredentials = { username: string; password: string };

export type SignInContext = CommandContext & { readonly origin: { readonly clientIp: string } };

export type TwoStepRequirement = (userId: string) => boolean | Promise<boolean>;

export class PasswordSignIn {
  constructor(
    private readonly users: Users,
    private readonly claims: UserClaims,
    private readonly hasher: PasswordHasher,
    private readonly sessions: Sessions,
    private readonly clock: Clock,
    private readonly attempts: SignInAttempts,
  ) {}

  async signIn(
    credentials: PasswordCredentials,
    context: SignInContext,
    twoStepRequired?: TwoStepRequirement,
  ): Promise<OpenedSession> {
    const name = parseLoginName(credentials.username);
    const user = await this.claims.findUserEvenly(name.kind, name.value);
    const key = user === undefined ? this.attempts.name(name) : this.attempts.account(user.userId);
    const address = this.attempts.address(context.origin.clientIp);
    // Every attempt that stays counted is one that a password check follows (a locked address cannot lock anyone out).
    const knownKey = await this.attempts.refuseIfLocked(key);
    const knownAddress = await this.attempts.refuseIfLocked(address);
    const [fromAddress, forKey] = await this.attempts.reserveAll([address, key], context, [knownAddress, knownKey]);
    // Slow every attempt once they pile up, before the outcome is known, so cutting the connection
    // early tells an attacker nothing.
    const delayMs = Math.max(fromAddress.delayMs, forKey.delayMs);
    if (delayMs > 0) await this.clock.sleep(delayMs);

    const passwordHash = user?.passwordHash ?? null;
    const valid =
      passwordHash === null
        ? await this.hasher.verifyNobody(credentials.password)
        : await this.hasher.verify(passwordHash, credentials.password);
    if (user === undefined || !valid) {
      await this.attempts.failed(forKey, context);
      throw new InvalidCredentials();
    }

    if (passwordHash !== null && this.hasher.needsRehash(passwordHash)) {
      const upgraded = await this.hasher.hash(credentials.password);
      await this.users.handle(user.userId, { type: 'SetPassword', data: { passwordHash: upgraded } }, context);
    }
    // Written at once, so they share one commit (the store's group commit).
    const awaiting = secondStepAwaited(user.secondFactors, (await twoStepRequired?.(user.userId)) === true);
    const [opened] = await Promise.all([
      this.sessions.open(user.userId, 'password', { ...context, actor: `user:${user.userId}` }, awaiting),
      this.attempts.succeeded(forKey, context),
      this.attempts.succeeded(fromAddress, context),
    ]);
    return opened;
  }
}
