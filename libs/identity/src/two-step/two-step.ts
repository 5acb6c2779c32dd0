// Two-step sign-in: setting up second factors (an authenticator app, passkeys, recovery codes), and the
// second step itself, which turns a half-open session into a full one. Every guess at the second step is
// an attempt counted before its check, on the account's own attempt stream (as passwords are), so however
// many arrive at once, on however many nodes, at most `lockAfter` are checked per run.
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { CommandContext } from '#application';
import { DomainError, InvalidCode, type SecondStepMethod, type SecondStepProof, type Session, type User, type UserCommand, type UserState } from '#domain';
import type { Clock } from '../clock.js';
import type { IdentityLogger } from '../logger.js';
import type { Mailer } from '../mail/mailer.js';
import { recoveryCodeUsedMail, secondFactorsResetMail } from '../mail/two-step-mail.js';
import type { OpenedSession, Sessions } from '../sessions/sessions.js';
import type { SignInAttempts } from '../sign-in/sign-in-attempts.js';
import type { SecretBox } from '../sso/secret-box.js';
import type { Users } from '../user/users.js';
import { asAuthenticatorCode, newAuthenticatorAppSetup, timeStepOf, type AuthenticatorAppSetup } from './authenticator-app.js';
import type { PasskeyCeremonies } from './passkeys.js';
import { asRecoveryCode, newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';
import type { TwoStepSeal } from './two-step-seal.js';

/** How long a QR code shown for setting up an app, or a WebAuthn challenge, may be answered. */
const SETUP_LIFETIME_MS = 15 * 60_000;
const CHALLENGE_LIFETIME_MS = 5 * 60_000;

export type SecondFactorsSummary = {
  authenticatorApp: { enrolledAt: string } | null;
  passkeys: { id: string; name: string; registeredAt: string; lastUsedAt: string | null }[];
  recoveryCodes: { remaining: number; generatedAt: string } | null;
};

/** A factor just set up: the recovery codes when it was the first (shown once), and the full session when it completed a sign-in. */
export type FactorSetUp = { recoveryCodes: string[] | null; opened?: OpenedSession };

export type TwoStepDependencies = {
  users: Users;
  sessions: Sessions;
  attempts: SignInAttempts;
  clock: Clock;
  mailer: Mailer;
  logger: IdentityLogger;
  links: { publicUrl: string; productName: string };
  /** Seals authenticator secrets at rest (SSO_SECRET_KEYS), bound to their user. */
  secretsAtRest: SecretBox;
  seal: TwoStepSeal;
  passkeys: PasskeyCeremonies;
};

export class TwoStep {
  constructor(private readonly deps: TwoStepDependencies) {}

  async summary(userId: string): Promise<SecondFactorsSummary> {
    const { authenticatorApp, passkeys, recoveryCodes } = (await this.registered(userId)).secondFactors;
    return {
      authenticatorApp: authenticatorApp === null ? null : { enrolledAt: authenticatorApp.enrolledAt },
      passkeys: passkeys.map(({ credentialId, name, registeredAt, lastUsedAt }) => ({ id: credentialId, name, registeredAt, lastUsedAt })),
      recoveryCodes: recoveryCodes === null ? null : { remaining: recoveryCodes.unused.length, generatedAt: recoveryCodes.generatedAt },
    };
  }

  // Setting up: a full session, or a half-open one that must enrol (never one awaiting its second step:
  // someone who only knows the password must not add a factor of their own).

  /** A new secret, its QR code, and `setup`: the secret sealed for this session, to send back with the first code. */
  async startAuthenticatorApp(session: Session): Promise<AuthenticatorAppSetup & { setup: string }> {
    const user = await this.registered(this.settingUp(session).userId);
    const app = await newAuthenticatorAppSetup(this.deps.links.productName, user.email);
    return { ...app, setup: this.deps.seal.seal('authenticator-app-setup', session.sessionId, app.secret, SETUP_LIFETIME_MS) };
  }

  /** The app is set up once a first code from it is right; the code proves it was scanned correctly. */
  async confirmAuthenticatorApp(session: Session, setup: string, code: string, context: CommandContext): Promise<FactorSetUp> {
    this.settingUp(session);
    const secret = this.deps.seal.open('authenticator-app-setup', session.sessionId, setup);
    if (secret === undefined) throw new DomainError('VALIDATION_FAILED', 'This setup has expired: start again.', { field: 'setup' });
    const digits = asAuthenticatorCode(code);
    if (digits === undefined || (await timeStepOf(secret, digits, this.deps.clock.now())) === undefined) {
      throw new InvalidCode('The code is not correct: check the app shows Chorus and try the newest code.');
    }
    const codes = newRecoveryCodes();
    const secretSealed = this.deps.secretsAtRest.seal(secret, session.userId);
    return this.factorSetUp(session, { type: 'EnrolAuthenticatorApp', data: { secretSealed, recoveryCodeHashes: codes.hashes } }, codes.codes, context);
  }

  async passkeyRegistrationOptions(session: Session): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; registration: string }> {
    const user = await this.registered(this.settingUp(session).userId);
    const options = await this.deps.passkeys.registrationOptions({ userId: user.userId, email: user.email }, user.secondFactors.passkeys);
    return { options, registration: this.deps.seal.seal('passkey-registration', session.sessionId, options.challenge, CHALLENGE_LIFETIME_MS) };
  }

  async registerPasskey(
    session: Session,
    registration: string,
    response: RegistrationResponseJSON,
    name: string,
    context: CommandContext,
  ): Promise<FactorSetUp> {
    this.settingUp(session);
    const challenge = this.deps.seal.open('passkey-registration', session.sessionId, registration);
    if (challenge === undefined) throw new DomainError('VALIDATION_FAILED', 'This registration has expired: start again.', { field: 'registration' });
    const passkey = await this.deps.passkeys.registered(response, challenge);
    if (passkey === undefined) throw new InvalidCode('The passkey could not be verified.');
    const codes = newRecoveryCodes();
    return this.factorSetUp(session, { type: 'RegisterPasskey', data: { ...passkey, name, recoveryCodeHashes: codes.hashes } }, codes.codes, context);
  }

  async renamePasskey(userId: string, credentialId: string, name: string, context: CommandContext): Promise<void> {
    await this.deps.users.handle(userId, { type: 'RenamePasskey', data: { credentialId, name } }, context);
  }

  async removePasskey(userId: string, credentialId: string, twoStepRequired: boolean, context: CommandContext): Promise<void> {
    await this.deps.users.handle(userId, { type: 'RemovePasskey', data: { credentialId } }, context, { twoStepRequired });
  }

  async removeAuthenticatorApp(userId: string, twoStepRequired: boolean, context: CommandContext): Promise<void> {
    await this.deps.users.handle(userId, { type: 'RemoveAuthenticatorApp', data: {} }, context, { twoStepRequired });
  }

  /** Ten new codes, shown once; the earlier ones stop working. */
  async regenerateRecoveryCodes(userId: string, context: CommandContext): Promise<string[]> {
    const codes = newRecoveryCodes();
    await this.deps.users.handle(userId, { type: 'RegenerateRecoveryCodes', data: { codeHashes: codes.hashes } }, context);
    return codes.codes;
  }

  /** An owner removed every factor of a member of `organizationId`; the member is told (nothing to remove: nothing happens). */
  async resetByOwner(userId: string, organizationId: string, organizationName: string, context: CommandContext): Promise<void> {
    const { state, events } = await this.deps.users.handle(userId, { type: 'ResetSecondFactors', data: { organizationId } }, context);
    if (events.length === 0 || state.status !== 'registered') return;
    this.mailLater(secondFactorsResetMail({ to: state.email, productName: this.deps.links.productName, organizationName, link: this.signInLink() }), context);
  }

  // The second step: a half-open session awaiting it.

  /** A six-digit code from the app, or a recovery code; the full session, or INVALID_CODE (CODE_ALREADY_USED, RATE_LIMITED). */
  async passWithCode(half: Session, code: string, context: CommandContext): Promise<OpenedSession> {
    this.awaitingSecondStep(half);
    return this.guessed(half, context, async (user) => {
      const digits = asAuthenticatorCode(code);
      if (digits !== undefined) {
        const app = user.secondFactors.authenticatorApp;
        const secret = app === null ? undefined : this.deps.secretsAtRest.open(app.secretSealed, user.userId);
        const timeStep = secret === undefined ? undefined : await timeStepOf(secret, digits, this.deps.clock.now());
        return { method: 'authenticator-app', proof: timeStep === undefined ? undefined : { method: 'authenticator-app', timeStep } };
      }
      const recoveryCode = asRecoveryCode(code);
      return { method: 'recovery-code', proof: recoveryCode === undefined ? undefined : { method: 'recovery-code', codeHash: recoveryCodeHash(recoveryCode) } };
    });
  }

  async passkeySignInOptions(half: Session): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; challenge: string }> {
    this.awaitingSecondStep(half);
    const user = await this.registered(half.userId);
    const options = await this.deps.passkeys.signInOptions(user.secondFactors.passkeys);
    return { options, challenge: this.deps.seal.seal('passkey-sign-in', half.sessionId, options.challenge, CHALLENGE_LIFETIME_MS) };
  }

  async passWithPasskey(half: Session, challengeToken: string, response: AuthenticationResponseJSON, context: CommandContext): Promise<OpenedSession> {
    this.awaitingSecondStep(half);
    const challenge = this.deps.seal.open('passkey-sign-in', half.sessionId, challengeToken);
    if (challenge === undefined) throw new DomainError('VALIDATION_FAILED', 'This passkey request has expired: try again.', { field: 'challenge' });
    return this.guessed(half, context, async (user) => {
      const used = await this.deps.passkeys.signedIn(response, challenge, user.secondFactors.passkeys);
      return { method: 'passkey', proof: used === undefined ? undefined : { method: 'passkey', ...used } };
    });
  }

  /**
   * One guess at the second step: counted before it is checked, recorded as a failure when wrong (or used
   * already), and otherwise the half-open session replaced by a full one. The account's count is cleared
   * by a success, as a password's is.
   */
  private async guessed(
    half: Session,
    context: CommandContext,
    check: (user: User) => Promise<{ method: Exclude<SecondStepMethod, 'enrolment'>; proof: SecondStepProof | undefined }>,
  ): Promise<OpenedSession> {
    const { attempts, clock, users } = this.deps;
    const key = attempts.secondStep(half.userId);
    const attempt = await attempts.reserve(key, context, await attempts.refuseIfLocked(key));
    if (attempt.delayMs > 0) await clock.sleep(attempt.delayMs);
    const user = await this.registered(half.userId);
    const { method, proof } = await check(user);
    try {
      if (proof === undefined) throw new InvalidCode();
      const { opened, user: after } = await this.pass(half, proof, context);
      await attempts.succeeded(attempt, context);
      if (proof.method === 'recovery-code') {
        const remaining = after.secondFactors.recoveryCodes?.unused.length ?? 0;
        this.mailLater(recoveryCodeUsedMail({ to: after.email, productName: this.deps.links.productName, remaining, link: this.signInLink() }), context);
      }
      return opened;
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'INVALID_CODE' || error.code === 'CODE_ALREADY_USED')) {
        await users.handle(half.userId, { type: 'FailSecondStep', data: { sessionId: half.sessionId, method } }, context);
      }
      throw error;
    }
  }

  /** The full session, and the user as the step left them (a recovery code spent). */
  private async pass(half: Session, proof: SecondStepProof, context: CommandContext): Promise<{ opened: OpenedSession; user: User }> {
    const asUser = { ...context, actor: `user:${half.userId}` };
    let user: UserState | undefined;
    const opened = await this.deps.sessions.openAfterSecondStep(
      half,
      proof.method,
      async (sessionId, absoluteExpiresAt) => {
        const command: UserCommand = { type: 'PassSecondStep', data: { previousSessionId: half.sessionId, sessionId, absoluteExpiresAt, proof } };
        ({ state: user } = await this.deps.users.handle(half.userId, command, asUser));
      },
      asUser,
    );
    if (user?.status !== 'registered') throw new DomainError('NOT_FOUND', 'No such user.');
    return { opened, user };
  }

  /** Records the new factor; a half-open session that had to enrol then becomes a full one. */
  private async factorSetUp(session: Session, command: UserCommand, codes: string[], context: CommandContext): Promise<FactorSetUp> {
    const { events } = await this.deps.users.handle(session.userId, command, context);
    const recoveryCodes = events.some((event) => event.type === 'RecoveryCodesGenerated') ? codes : null;
    if (session.awaiting !== 'enrolment') return { recoveryCodes };
    return { recoveryCodes, opened: (await this.pass(session, { method: 'enrolment' }, context)).opened };
  }

  private settingUp(session: Session): Session {
    if (session.awaiting === 'second-step') throw new DomainError('FORBIDDEN', 'Pass the second step first; factors are set up on the Account page.');
    return session;
  }

  private awaitingSecondStep(half: Session): void {
    if (half.awaiting !== 'second-step') throw new DomainError('FORBIDDEN', 'This session is not waiting for a second step.');
  }

  private async registered(userId: string): Promise<User> {
    const { state } = await this.deps.users.load(userId);
    if (state.status !== 'registered') throw new DomainError('NOT_FOUND', 'No such user.');
    return state;
  }

  private signInLink(): string {
    return new URL('/login', this.deps.links.publicUrl).toString();
  }

  /** Mailed after the answer; a failure is logged (the event that caused it is recorded whatever happens to the mail). */
  private mailLater(message: Parameters<Mailer['send']>[0], context: CommandContext): void {
    this.deps.mailer.send(message).catch((error: unknown) => {
      this.deps.logger.error({ err: error, correlationId: context.correlationId }, 'two-step sign-in mail failed');
    });
  }
}
