// POST /login: username or e-mail and password. Every failure looks the same (same error, same
// work: an unknown user's password is checked against a dummy hash), and failures are throttled
// per account and per client address.
import type { CommandContext } from '#event-store';
import type { Clock } from '../clock.js';
import { InvalidCredentials, RateLimited } from '../errors.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { OpenedSession, Sessions } from '../sessions/sessions.js';
import { parseLoginName } from '../user/identifiers.js';
import type { UserClaims } from '../user/user-claims.js';
import type { User } from '../user/user.js';
import type { Users } from '../user/users.js';
import type { ThrottleCounters } from './throttle-counters.js';
import { accountThrottlePolicy, stricter, throttleDecision } from './failure-streak.js';

export type PasswordCredentials = { username: string; password: string };

/** Who is signing in: failures are counted per client address too, so the address must be known. */
export type SignInContext = CommandContext & { readonly origin: { readonly clientIp: string } };

export class PasswordSignIn {
  constructor(
    private readonly users: Users,
    private readonly claims: UserClaims,
    private readonly hasher: PasswordHasher,
    private readonly sessions: Sessions,
    private readonly clock: Clock,
    /** Per client address (this node's memory). */
    private readonly addresses: ThrottleCounters,
    /** Per login name that matches no account, so unknown names are throttled like real ones. */
    private readonly unknownNames: ThrottleCounters,
  ) {}

  async signIn(credentials: PasswordCredentials, context: SignInContext): Promise<OpenedSession> {
    const name = parseLoginName(credentials.username);
    const nameKey = `${name.kind}:${name.value}`;
    const user = await this.findUser(name.kind, name.value);

    const now = this.clock.now();
    const decision = stricter(
      this.addresses.decision(context.origin.clientIp, now),
      user === undefined
        ? this.unknownNames.decision(nameKey, now)
        : throttleDecision(user.failedSignIns, now, accountThrottlePolicy),
    );
    if (decision.kind === 'refuse') throw new RateLimited(Math.ceil(decision.retryAfterMs / 1000));
    // Slow every attempt once failures pile up, before the outcome is known, so cutting the
    // connection early tells an attacker nothing.
    if (decision.delayMs > 0) await this.clock.sleep(decision.delayMs);

    const passwordHash = user?.passwordHash ?? null;
    const valid =
      passwordHash === null
        ? await this.hasher.verifyNobody(credentials.password)
        : await this.hasher.verify(passwordHash, credentials.password);

    if (user === undefined || !valid) {
      this.addresses.record(context.origin.clientIp, this.clock.now());
      if (user === undefined) this.unknownNames.record(nameKey, this.clock.now());
      else {
        const reason = passwordHash === null ? 'no-password' : 'wrong-password';
        await this.users.handle(user.userId, { type: 'RecordFailedSignIn', data: { reason } }, context);
      }
      throw new InvalidCredentials();
    }

    if (passwordHash !== null && this.hasher.needsRehash(passwordHash)) {
      const upgraded = await this.hasher.hash(credentials.password);
      await this.users.handle(user.userId, { type: 'SetPassword', data: { passwordHash: upgraded } }, context);
    }
    return this.sessions.open(user.userId, 'password', { ...context, actor: `user:${user.userId}` });
  }

  private async findUser(kind: 'email' | 'username', value: string): Promise<User | undefined> {
    return value === '' ? undefined : this.claims.findUser(kind, value);
  }
}
