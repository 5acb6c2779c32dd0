// The current password is an attempt counted as the login form's are, so a stolen session cannot guess faster.
import type { CommandContext } from '#application';
import type { Clock } from '../clock.js';
import { DomainError } from '#domain';
import type { Sessions } from '../sessions/sessions.js';
import type { SignInAttempts } from '../sign-in/sign-in-attempts.service.js';
import type { Users } from '../user/users.js';
import type { PasswordHasher } from './password-hasher.js';
import { passwordPolicyViolation } from './password-policy.js';

export type PasswordChangeRequest = { currentPassword: string; newPassword: string };

export class PasswordChange {
  constructor(
    private readonly users: Users,
    private readonly hasher: PasswordHasher,
    private readonly sessions: Sessions,
    private readonly clock: Clock,
    private readonly attempts: SignInAttempts,
  ) {}

  async change(
    userId: string,
    sessionId: string,
    request: PasswordChangeRequest,
    context: CommandContext,
  ): Promise<{ endedSessions: number }> {
    const { state } = await this.users.load(userId);
    if (state.status !== 'registered') throw new DomainError('NOT_FOUND', 'No such user.');
    const attempt = await this.attempts.reserve(this.attempts.account(userId), context);
    if (attempt.delayMs > 0) await this.clock.sleep(attempt.delayMs);

    if (state.passwordHash === null) {
      // Setting a first password from a session alone would let whoever holds the session keep the account.
      await this.hasher.verifyNobody(request.currentPassword);
      throw new DomainError(
        'WRONG_PASSWORD',
        'This account has no password yet: use "Forgot your password?" on the login page to choose one.',
        {
          field: 'currentPassword',
        },
      );
    }
    if (!(await this.hasher.verify(state.passwordHash, request.currentPassword))) {
      throw new DomainError('WRONG_PASSWORD', 'The current password is not correct.', { field: 'currentPassword' });
    }
    await this.attempts.succeeded(attempt, context);
    const violation = passwordPolicyViolation(request.newPassword, { email: state.email, username: state.username });
    if (violation !== null) throw new DomainError('VALIDATION_FAILED', violation, { field: 'newPassword' });

    const passwordHash = await this.hasher.hash(request.newPassword);
    const { events } = await this.users.handle(
      userId,
      { type: 'ChangePassword', data: { passwordHash, keepSessionId: sessionId } },
      context,
    );
    const changed = events.find((event) => event.type === 'PasswordChanged');
    const ended = changed?.data.endedSessionIds ?? [];
    await this.sessions.endAll(ended, 'password-changed', context);
    return { endedSessions: ended.length };
  }
}
