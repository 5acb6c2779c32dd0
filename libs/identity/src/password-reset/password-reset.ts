import type { CommandContext } from '#application';
import type { Clock } from '../clock.js';
import { DomainError, InvalidToken, RateLimited } from '#domain';
import type { IdentityLogger } from '../logger.js';
import type { Mailer } from '../mail/mailer.js';
import { resetMail } from '../mail/reset-mail.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordPolicyViolation } from '../passwords/password-policy.js';
import type { Sessions } from '../sessions/sessions.js';
import { normalizeEmail } from '../user/identifiers.js';
import type { UserClaims } from '../user/user-claims.js';
import type { Users } from '../user/users.js';
import type { SignInAttempts } from '../sign-in/sign-in-attempts.service.js';
import type { ThrottleCounters } from '../sign-in/throttle-counters.js';
import { issueUserToken, readUserToken } from '../tokens/user-token.js';

export const resetLinkLifetimeMs = 3_600_000;

export type PasswordResetOptions = { publicUrl: string; productName: string };

export class PasswordReset {
  constructor(
    private readonly users: Users,
    private readonly claims: UserClaims,
    private readonly hasher: PasswordHasher,
    private readonly sessions: Sessions,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly options: PasswordResetOptions,
    private readonly logger: IdentityLogger,
    private readonly requestsPerAddress: ThrottleCounters,
    /** A completed reset lifts the account's sign-in lock. */
    private readonly signInAttempts: SignInAttempts,
  ) {}

  admit(clientIp: string): void {
    const reservation = this.requestsPerAddress.reserve(clientIp, this.clock.now());
    if (reservation.kind === 'refuse') throw new RateLimited(Math.ceil(reservation.retryAfterMs / 1000));
  }

  /** Does nothing visible for an unknown address. */
  async request(email: string, context: CommandContext): Promise<void> {
    // An address only reserved for a member who has not registered yet is nobody's account.
    const state = await this.claims.findUser('email', normalizeEmail(email));
    if (state === undefined) return;
    const { userId } = state;
    const { token, tokenHash } = issueUserToken(userId);
    const expiresAt = new Date(this.clock.now().getTime() + resetLinkLifetimeMs);
    try {
      await this.users.handle(userId, { type: 'RequestPasswordReset', data: { tokenHash, expiresAt } }, context);
    } catch (error) {
      if (!(error instanceof RateLimited)) throw error;
      this.logger.warn(
        { userId, correlationId: context.correlationId },
        'Password reset mail not sent: too many for this address',
      );
      return;
    }
    await this.mailer.send(
      resetMail({
        to: state.email,
        productName: this.options.productName,
        link: `${this.options.publicUrl}/reset/${token}`,
        validMinutes: resetLinkLifetimeMs / 60_000,
      }),
    );
  }

  /** One answer for every reason a token fails: it tells nobody more than submitting the link would. */
  async isValid(token: string): Promise<boolean> {
    return (await this.pendingReset(token)) !== undefined;
  }

  /** keepSessionId stays open when it belongs to the same user. */
  async complete(
    token: string,
    password: string,
    context: CommandContext,
    keepSessionId?: string,
  ): Promise<{ userId: string }> {
    const pending = await this.pendingReset(token);
    if (pending === undefined) throw new InvalidToken();
    const { read, state } = pending;
    const violation = passwordPolicyViolation(password, { email: state.email, username: state.username });
    if (violation !== null) throw new DomainError('VALIDATION_FAILED', violation, { field: 'password' });

    const passwordHash = await this.hasher.hash(password);
    const { events } = await this.users.handle(
      read.userId,
      {
        type: 'CompletePasswordReset',
        data: { tokenHash: read.tokenHash, passwordHash, ...(keepSessionId === undefined ? {} : { keepSessionId }) },
      },
      context,
    );
    const completed = events.find((event) => event.type === 'PasswordResetCompleted');
    if (completed !== undefined) await this.sessions.endAll(completed.data.endedSessionIds, 'password-reset', context);
    await this.signInAttempts.clearAccount(read.userId, context);
    return { userId: read.userId };
  }

  private async pendingReset(token: string) {
    const read = readUserToken(token);
    if (read === undefined) return undefined;
    const { state } = await this.users.load(read.userId);
    const now = this.clock.now().getTime();
    if (state.status !== 'registered') return undefined;
    const pending = state.pendingResets.some(
      (reset) => reset.tokenHash === read.tokenHash && new Date(reset.expiresAt).getTime() > now,
    );
    return pending ? { read, state } : undefined;
  }
}
