// An owner resets at once only an account the organization answers for; anyone else must agree by a mailed link,
// so that no owner can strip a stranger's second factors by adding them as a member.
import { RESET_REQUEST_LIFETIME_MS, type ResetAuthority, DomainError, InvalidToken } from '#domain';
import type { CommandContext } from '#application';
import type { Clock } from '../clock.js';
import type { IdentityLogger } from '../logger.js';
import type { Mailer, MailMessage } from '../mail/mailer.js';
import { secondFactorsResetMail, secondFactorsResetRequestMail } from '../mail/two-step-mail.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { SignInAttempts } from '../sign-in/sign-in-attempts.service.js';
import { issueUserToken, readUserToken } from '../tokens/user-token.js';
import type { Users } from '../user/users.js';

export type OwnerResetOutcome = 'reset' | 'confirmation-mailed' | 'nothing-to-reset';

export type ResetRequestStatus = { valid: false } | { valid: true; organizationId: string; passwordRequired: boolean };

export type OwnerResetDependencies = {
  users: Users;
  attempts: SignInAttempts;
  hasher: PasswordHasher;
  clock: Clock;
  mailer: Mailer;
  logger: IdentityLogger;
  links: { publicUrl: string; productName: string };
};

export class OwnerResets {
  constructor(private readonly deps: OwnerResetDependencies) {}

  /** `answersFor`: the caller checked that the organization answers for the account. */
  async reset(
    userId: string,
    organization: { id: string; name: string },
    answersFor: boolean,
    context: CommandContext,
  ): Promise<OwnerResetOutcome> {
    const { users, clock, links } = this.deps;
    if (answersFor) {
      const authority: ResetAuthority = { kind: 'account-of-organization', organizationId: organization.id };
      const { state, events } = await users.handle(userId, { type: 'ResetSecondFactors', data: authority }, context);
      if (events.length === 0 || state.status !== 'registered') return 'nothing-to-reset';
      this.mailLater(
        secondFactorsResetMail({
          to: state.email,
          productName: links.productName,
          organizationName: organization.name,
          link: this.link('/login'),
        }),
        context,
      );
      return 'reset';
    }
    const { token, tokenHash } = issueUserToken(userId);
    const expiresAt = new Date(clock.now().getTime() + RESET_REQUEST_LIFETIME_MS);
    const { state, events } = await users.handle(
      userId,
      { type: 'RequestSecondFactorsReset', data: { organizationId: organization.id, tokenHash, expiresAt } },
      context,
    );
    if (events.length === 0 || state.status !== 'registered') return 'nothing-to-reset';
    const mail = secondFactorsResetRequestMail({
      to: state.email,
      productName: links.productName,
      organizationName: organization.name,
      link: this.link(`/two-step-reset/${token}`),
      validHours: RESET_REQUEST_LIFETIME_MS / 3_600_000,
    });
    this.mailLater(mail, context);
    return 'confirmation-mailed';
  }

  async status(token: string): Promise<ResetRequestStatus> {
    const request = await this.pending(token);
    if (request === undefined) return { valid: false };
    return { valid: true, organizationId: request.organizationId, passwordRequired: request.passwordRequired };
  }

  /** The password is a guess, counted before its check as at sign-in. */
  async confirm(
    token: string,
    password: string | undefined,
    organizationName: (id: string) => string,
    context: CommandContext,
  ): Promise<void> {
    const { users, attempts, hasher, clock, links } = this.deps;
    const request = await this.pending(token);
    if (request === undefined) throw new InvalidToken('This link is unknown, used or expired.');
    const { userId, tokenHash, passwordHash } = request;
    const asPerson = { ...context, actor: `user:${userId}` };
    const key = attempts.account(userId);
    const attempt =
      passwordHash === null ? undefined : await attempts.reserve(key, asPerson, await attempts.refuseIfLocked(key));
    if (attempt !== undefined && attempt.delayMs > 0) await clock.sleep(attempt.delayMs);
    if (passwordHash !== null && (password === undefined || !(await hasher.verify(passwordHash, password)))) {
      throw new DomainError('WRONG_PASSWORD', 'The password is not correct.', { field: 'password' });
    }
    const { state, events } = await users.handle(
      userId,
      { type: 'ResetSecondFactors', data: { kind: 'confirmed-by-person', tokenHash } },
      asPerson,
    );
    if (attempt !== undefined) await attempts.succeeded(attempt, asPerson);
    if (events.length === 0 || state.status !== 'registered') return;
    const mail = secondFactorsResetMail({
      to: state.email,
      productName: links.productName,
      organizationName: organizationName(request.organizationId),
      link: this.link('/login'),
      confirmed: true,
    });
    this.mailLater(mail, asPerson);
  }

  private async pending(token: string) {
    const read = readUserToken(token);
    if (read === undefined) return undefined;
    const { state } = await this.deps.users.load(read.userId);
    if (state.status !== 'registered') return undefined;
    const now = this.deps.clock.now().getTime();
    const request = state.secondFactors.resetRequests.find(
      (candidate) => candidate.tokenHash === read.tokenHash && Date.parse(candidate.expiresAt) > now,
    );
    if (request === undefined) return undefined;
    return {
      ...request,
      userId: read.userId,
      passwordHash: state.passwordHash,
      passwordRequired: state.passwordHash !== null,
    };
  }

  private link(path: string): string {
    return new URL(path, this.deps.links.publicUrl).toString();
  }

  private mailLater(message: MailMessage, context: CommandContext): void {
    this.deps.mailer.send(message).catch((error: unknown) => {
      this.deps.logger.error(
        { err: error, correlationId: context.correlationId },
        'two-step sign-in reset mail failed',
      );
    });
  }
}
