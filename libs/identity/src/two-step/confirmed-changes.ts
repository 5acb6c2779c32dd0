// A password or code confirming a change is a guess, counted before its check, so a stolen session guesses no
// faster than the sign-in forms.
import type { CommandContext } from '#application';
import {
  DomainError,
  hasSecondFactor,
  InvalidCode,
  RECENT_SIGN_IN_MS,
  type FactorChangeCommand,
  type FactorChangeProof,
  type Session,
  type User,
  type UserCommand,
  type UserEvent,
} from '#domain';
import type { Clock } from '../clock.js';
import type { FactorChange } from '../mail/two-step-mail.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { SignInAttempts } from '../sign-in/sign-in-attempts.service.js';
import type { SecretBox } from '../sso/secret-box.js';
import type { Users } from '../user/users.js';
import { asAuthenticatorCode, timeStepOf } from './authenticator-app.js';
import { asRecoveryCode, recoveryCodeHash } from './recovery-codes.js';

/** Neither: the session's sign-in must be recent. */
export type ChangeConfirmation = { password?: string | undefined; code?: string | undefined };

export type CodeProof = Extract<FactorChangeProof, { method: 'authenticator-app' | 'recovery-code' }>;

/** `proof` is undefined for a wrong code. */
export async function codeProof(
  user: User,
  code: string,
  secretsAtRest: SecretBox,
  now: Date,
): Promise<{ method: CodeProof['method']; proof: CodeProof | undefined }> {
  const digits = asAuthenticatorCode(code);
  if (digits !== undefined) {
    const app = user.secondFactors.authenticatorApp;
    const secret = app === null ? undefined : secretsAtRest.open(app.secretSealed, user.userId);
    const timeStep = secret === undefined ? undefined : await timeStepOf(secret, digits, now);
    return {
      method: 'authenticator-app',
      proof: timeStep === undefined ? undefined : { method: 'authenticator-app', timeStep },
    };
  }
  const recoveryCode = asRecoveryCode(code);
  return {
    method: 'recovery-code',
    proof:
      recoveryCode === undefined ? undefined : { method: 'recovery-code', codeHash: recoveryCodeHash(recoveryCode) },
  };
}

export type ConfirmedChangesDependencies = {
  users: Users;
  attempts: SignInAttempts;
  hasher: PasswordHasher;
  clock: Clock;
  secretsAtRest: SecretBox;
  mail: (to: string, change: FactorChange, context: CommandContext) => void;
};

export class ConfirmedChanges {
  constructor(private readonly deps: ConfirmedChangesDependencies) {}

  /** A session that must enrol has just proved its sign-in, so its first factor needs no confirmation. */
  async make(
    session: Session,
    { password, code }: ChangeConfirmation,
    change: FactorChangeCommand,
    words: FactorChange,
    context: CommandContext,
    twoStepRequired = false,
  ): Promise<UserEvent[]> {
    const { users } = this.deps;
    const record = async (command: UserCommand) => {
      const { events, state } = await users.handle(session.userId, command, context, { twoStepRequired });
      if (events.length > 0 && state.status === 'registered') this.deps.mail(state.email, words, context);
      return events;
    };
    if (session.awaiting === 'enrolment') return record(change);
    if (password === undefined && code === undefined) {
      return record({
        type: 'ConfirmFactorChange',
        data: { proof: { method: 'recent-sign-in', signedInAt: session.startedAt }, change },
      });
    }
    const { proof, attempt } = await this.checked(session.userId, { password, code }, context);
    const events = await record({ type: 'ConfirmFactorChange', data: { proof, change } });
    await this.deps.attempts.succeeded(attempt, context);
    return events;
  }

  /**
   * For an act as grave as a change of factors (deleting the account): the account's password, or for an account
   * without one a current code of its second factor; with neither to give, a sign-in of the last minutes.
   */
  async prove(session: Session, { password, code }: ChangeConfirmation, context: CommandContext): Promise<void> {
    const { state: user } = await this.deps.users.load(session.userId);
    if (user.status !== 'registered') throw new DomainError('NOT_FOUND', 'No such user.');
    if (user.passwordHash !== null && password === undefined)
      throw new DomainError('WRONG_PASSWORD', 'Enter your password.', { field: 'password' });
    if (password === undefined && code === undefined) {
      if (hasSecondFactor(user.secondFactors)) throw new InvalidCode();
      if (this.deps.clock.now().getTime() - Date.parse(session.startedAt) > RECENT_SIGN_IN_MS) {
        throw new DomainError(
          'REAUTHENTICATION_REQUIRED',
          `Sign in again first: this needs a sign-in of the last ${RECENT_SIGN_IN_MS / 60_000} minutes.`,
        );
      }
      return;
    }
    const { attempt } = await this.checked(session.userId, { password, code }, context);
    await this.deps.attempts.succeeded(attempt, context);
  }

  /** The password or code, checked as a guess counted before its check. */
  private async checked(userId: string, { password, code }: ChangeConfirmation, context: CommandContext) {
    const { attempts, clock, hasher, users } = this.deps;
    const { state: user } = await users.load(userId);
    if (user.status !== 'registered') throw new DomainError('NOT_FOUND', 'No such user.');
    const key = password !== undefined ? attempts.account(userId) : attempts.secondStep(userId);
    const attempt = await attempts.reserve(key, context, await attempts.refuseIfLocked(key));
    if (attempt.delayMs > 0) await clock.sleep(attempt.delayMs);
    let proof: FactorChangeProof | undefined;
    if (password !== undefined) {
      const valid =
        user.passwordHash === null
          ? await hasher.verifyNobody(password)
          : await hasher.verify(user.passwordHash, password);
      if (!valid || user.passwordHash === null)
        throw new DomainError('WRONG_PASSWORD', 'The password is not correct.', { field: 'password' });
      proof = { method: 'password' };
    } else {
      proof = (await codeProof(user, code ?? '', this.deps.secretsAtRest, clock.now())).proof;
      if (proof === undefined) throw new InvalidCode();
    }
    return { proof, attempt };
  }
}
