// Every guess at the second step is counted before its check, as passwords are, so however many arrive at once,
// on however many nodes, at most `lockAfter` are checked per run.
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { CommandContext } from '#application';
import {
  DomainError,
  InvalidCode,
  type FactorChangeCommand,
  type SecondStepMethod,
  type SecondStepProof,
  type Session,
  type User,
  type UserCommand,
  type UserState,
} from '#domain';
import type { Clock } from '../clock.js';
import type { IdentityLogger } from '../logger.js';
import type { Mailer } from '../mail/mailer.js';
import { factorChangedMail, recoveryCodeUsedMail, type FactorChange } from '../mail/two-step-mail.js';
import type { PasswordHasher } from '../passwords/password-hasher.js';
import type { OpenedSession, Sessions } from '../sessions/sessions.js';
import type { SignInAttempts } from '../sign-in/sign-in-attempts.service.js';
import type { SecretBox } from '../sso/secret-box.js';
import type { Users } from '../user/users.js';
import {
  asAuthenticatorCode,
  newAuthenticatorAppSetup,
  timeStepOf,
  type AuthenticatorAppSetup,
} from './authenticator-app.js';
import { codeProof, ConfirmedChanges, type ChangeConfirmation } from './confirmed-changes.js';
import type { PasskeyCeremonies } from './passkeys.js';
import { newRecoveryCodes } from './recovery-codes.js';
import type { TwoStepSeal } from './two-step-seal.js';

const SETUP_LIFETIME_MS = 15 * 60_000;
const CHALLENGE_LIFETIME_MS = 5 * 60_000;

export type SecondFactorsSummary = {
  confirmWith: 'password' | 'code' | 'recent-sign-in';
  authenticatorApp: { enrolledAt: string } | null;
  passkeys: { id: string; name: string; registeredAt: string; lastUsedAt: string | null }[];
  recoveryCodes: { remaining: number; generatedAt: string } | null;
};

/** Recovery codes only for a first factor (shown once). */
export type FactorSetUp = { recoveryCodes: string[] | null; opened?: OpenedSession };

export type TwoStepDependencies = {
  users: Users;
  sessions: Sessions;
  attempts: SignInAttempts;
  hasher: PasswordHasher;
  clock: Clock;
  mailer: Mailer;
  logger: IdentityLogger;
  links: { publicUrl: string; productName: string };
  /** Bound to their user. */
  secretsAtRest: SecretBox;
  seal: TwoStepSeal;
  passkeys: PasskeyCeremonies;
};

export class TwoStep {
  private readonly changes: ConfirmedChanges;

  constructor(private readonly deps: TwoStepDependencies) {
    const mail = (to: string, change: FactorChange, context: CommandContext) => this.mailChange(to, change, context);
    this.changes = new ConfirmedChanges({ ...deps, mail });
  }

  async summary(userId: string): Promise<SecondFactorsSummary> {
    const user = await this.registered(userId);
    const { authenticatorApp, passkeys, recoveryCodes } = user.secondFactors;
    const byCode = authenticatorApp !== null || (recoveryCodes?.unused.length ?? 0) > 0;
    return {
      confirmWith: user.passwordHash !== null ? 'password' : byCode ? 'code' : 'recent-sign-in',
      authenticatorApp: authenticatorApp === null ? null : { enrolledAt: authenticatorApp.enrolledAt },
      passkeys: passkeys.map(({ credentialId, name, registeredAt, lastUsedAt }) => ({
        id: credentialId,
        name,
        registeredAt,
        lastUsedAt,
      })),
      recoveryCodes:
        recoveryCodes === null
          ? null
          : { remaining: recoveryCodes.unused.length, generatedAt: recoveryCodes.generatedAt },
    };
  }

  // Setting up: a full session, or a half-open one that must enrol (never one awaiting its second step:
  // someone who only knows the password must not add a factor of their own).

  /** `setup`: the secret sealed for this session, to send back with the first code. */
  async startAuthenticatorApp(session: Session): Promise<AuthenticatorAppSetup & { setup: string }> {
    const user = await this.registered(this.settingUp(session).userId);
    const app = await newAuthenticatorAppSetup(this.deps.links.productName, user.email);
    return {
      ...app,
      setup: this.deps.seal.seal('authenticator-app-setup', session.sessionId, app.secret, SETUP_LIFETIME_MS),
    };
  }

  /** The person proves it is them before an act as grave as a change of factors: see ConfirmedChanges.prove. */
  proveIdentity(session: Session, confirmation: ChangeConfirmation, context: CommandContext): Promise<void> {
    return this.changes.prove(session, confirmation, context);
  }

  async confirmAuthenticatorApp(
    session: Session,
    setup: string,
    code: string,
    context: CommandContext,
    confirmation: ChangeConfirmation = {},
  ): Promise<FactorSetUp> {
    this.settingUp(session);
    const secret = this.deps.seal.open('authenticator-app-setup', session.sessionId, setup);
    if (secret === undefined)
      throw new DomainError('VALIDATION_FAILED', 'This setup has expired: start again.', { field: 'setup' });
    const digits = asAuthenticatorCode(code);
    if (digits === undefined || (await timeStepOf(secret, digits, this.deps.clock.now())) === undefined) {
      throw new InvalidCode('The code is not correct: check the app shows Chorus and try the newest code.');
    }
    const codes = newRecoveryCodes();
    const secretSealed = this.deps.secretsAtRest.seal(secret, session.userId);
    const change: FactorChangeCommand = {
      type: 'EnrolAuthenticatorApp',
      data: { secretSealed, recoveryCodeHashes: codes.hashes },
    };
    return this.factorSetUp(session, change, codes.codes, 'authenticator-app-added', confirmation, context);
  }

  async passkeyRegistrationOptions(
    session: Session,
  ): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; registration: string }> {
    const user = await this.registered(this.settingUp(session).userId);
    const options = await this.deps.passkeys.registrationOptions(
      { userId: user.userId, email: user.email },
      user.secondFactors.passkeys,
    );
    return {
      options,
      registration: this.deps.seal.seal(
        'passkey-registration',
        session.sessionId,
        options.challenge,
        CHALLENGE_LIFETIME_MS,
      ),
    };
  }

  async registerPasskey(
    session: Session,
    registration: string,
    response: RegistrationResponseJSON,
    name: string,
    context: CommandContext,
    confirmation: ChangeConfirmation = {},
  ): Promise<FactorSetUp> {
    this.settingUp(session);
    const challenge = this.deps.seal.open('passkey-registration', session.sessionId, registration);
    if (challenge === undefined)
      throw new DomainError('VALIDATION_FAILED', 'This registration has expired: start again.', {
        field: 'registration',
      });
    const passkey = await this.deps.passkeys.registered(response, challenge);
    if (passkey === undefined) throw new InvalidCode('The passkey could not be verified.');
    const codes = newRecoveryCodes();
    const change: FactorChangeCommand = {
      type: 'RegisterPasskey',
      data: { ...passkey, name, recoveryCodeHashes: codes.hashes },
    };
    return this.factorSetUp(session, change, codes.codes, 'passkey-added', confirmation, context);
  }

  async renamePasskey(
    session: Session,
    credentialId: string,
    name: string,
    confirmation: ChangeConfirmation,
    context: CommandContext,
  ): Promise<void> {
    await this.changes.make(
      session,
      confirmation,
      { type: 'RenamePasskey', data: { credentialId, name } },
      'passkey-renamed',
      context,
    );
  }

  async removePasskey(
    session: Session,
    credentialId: string,
    twoStepRequired: boolean,
    confirmation: ChangeConfirmation,
    context: CommandContext,
  ): Promise<void> {
    await this.changes.make(
      session,
      confirmation,
      { type: 'RemovePasskey', data: { credentialId } },
      'passkey-removed',
      context,
      twoStepRequired,
    );
  }

  async removeAuthenticatorApp(
    session: Session,
    twoStepRequired: boolean,
    confirmation: ChangeConfirmation,
    context: CommandContext,
  ): Promise<void> {
    const change = { type: 'RemoveAuthenticatorApp', data: {} } as const;
    await this.changes.make(session, confirmation, change, 'authenticator-app-removed', context, twoStepRequired);
  }

  async regenerateRecoveryCodes(
    session: Session,
    confirmation: ChangeConfirmation,
    context: CommandContext,
  ): Promise<string[]> {
    const codes = newRecoveryCodes();
    await this.changes.make(
      session,
      confirmation,
      { type: 'RegenerateRecoveryCodes', data: { codeHashes: codes.hashes } },
      'recovery-codes-regenerated',
      context,
    );
    return codes.codes;
  }

  private mailChange(to: string, change: FactorChange, context: CommandContext): void {
    this.mailLater(
      factorChangedMail({ to, productName: this.deps.links.productName, change, link: this.accountLink() }),
      context,
    );
  }

  async passWithCode(half: Session, code: string, context: CommandContext): Promise<OpenedSession> {
    this.awaitingSecondStep(half);
    return this.guessed(half, context, (user) => codeProof(user, code, this.deps.secretsAtRest, this.deps.clock.now()));
  }

  async passkeySignInOptions(
    half: Session,
  ): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; challenge: string }> {
    this.awaitingSecondStep(half);
    const user = await this.registered(half.userId);
    const options = await this.deps.passkeys.signInOptions(user.secondFactors.passkeys);
    return {
      options,
      challenge: this.deps.seal.seal('passkey-sign-in', half.sessionId, options.challenge, CHALLENGE_LIFETIME_MS),
    };
  }

  async passWithPasskey(
    half: Session,
    challengeToken: string,
    response: AuthenticationResponseJSON,
    context: CommandContext,
  ): Promise<OpenedSession> {
    this.awaitingSecondStep(half);
    const challenge = this.deps.seal.open('passkey-sign-in', half.sessionId, challengeToken);
    if (challenge === undefined)
      throw new DomainError('VALIDATION_FAILED', 'This passkey request has expired: try again.', {
        field: 'challenge',
      });
    return this.guessed(half, context, async (user) => {
      const used = await this.deps.passkeys.signedIn(response, challenge, user.secondFactors.passkeys);
      return { method: 'passkey', proof: used === undefined ? undefined : { method: 'passkey', ...used } };
    });
  }

  private async guessed(
    half: Session,
    context: CommandContext,
    check: (
      user: User,
    ) => Promise<{ method: Exclude<SecondStepMethod, 'enrolment'>; proof: SecondStepProof | undefined }>,
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
        this.mailLater(
          recoveryCodeUsedMail({
            to: after.email,
            productName: this.deps.links.productName,
            remaining,
            link: this.signInLink(),
          }),
          context,
        );
      }
      return opened;
    } catch (error) {
      if (error instanceof DomainError && (error.code === 'INVALID_CODE' || error.code === 'CODE_ALREADY_USED')) {
        await users.handle(
          half.userId,
          { type: 'FailSecondStep', data: { sessionId: half.sessionId, method } },
          context,
        );
      }
      throw error;
    }
  }

  private async pass(
    half: Session,
    proof: SecondStepProof,
    context: CommandContext,
  ): Promise<{ opened: OpenedSession; user: User }> {
    const asUser = { ...context, actor: `user:${half.userId}` };
    let user: UserState | undefined;
    const opened = await this.deps.sessions.openAfterSecondStep(
      half,
      proof.method,
      async (sessionId, absoluteExpiresAt) => {
        const command: UserCommand = {
          type: 'PassSecondStep',
          data: { previousSessionId: half.sessionId, sessionId, absoluteExpiresAt, proof },
        };
        ({ state: user } = await this.deps.users.handle(half.userId, command, asUser));
      },
      asUser,
    );
    if (user?.status !== 'registered') throw new DomainError('NOT_FOUND', 'No such user.');
    return { opened, user };
  }

  private async factorSetUp(
    session: Session,
    change: FactorChangeCommand,
    codes: string[],
    words: FactorChange,
    confirmation: ChangeConfirmation,
    context: CommandContext,
  ): Promise<FactorSetUp> {
    const events = await this.changes.make(session, confirmation, change, words, context);
    const recoveryCodes = events.some((event) => event.type === 'RecoveryCodesGenerated') ? codes : null;
    if (session.awaiting !== 'enrolment') return { recoveryCodes };
    return { recoveryCodes, opened: (await this.pass(session, { method: 'enrolment' }, context)).opened };
  }

  private settingUp(session: Session): Session {
    if (session.awaiting === 'second-step')
      throw new DomainError('FORBIDDEN', 'Pass the second step first; factors are set up on the Account page.');
    return session;
  }

  private awaitingSecondStep(half: Session): void {
    if (half.awaiting !== 'second-step')
      throw new DomainError('FORBIDDEN', 'This session is not waiting for a second step.');
  }

  private async registered(userId: string): Promise<User> {
    const { state } = await this.deps.users.load(userId);
    if (state.status !== 'registered') throw new DomainError('NOT_FOUND', 'No such user.');
    return state;
  }

  private signInLink(): string {
    return new URL('/login', this.deps.links.publicUrl).toString();
  }

  private accountLink(): string {
    return new URL('/app/account', this.deps.links.publicUrl).toString();
  }

  /** A mail failure is only logged: the event that caused it is recorded whatever happens to the mail. */
  private mailLater(message: Parameters<Mailer['send']>[0], context: CommandContext): void {
    this.deps.mailer.send(message).catch((error: unknown) => {
      this.deps.logger.error({ err: error, correlationId: context.correlationId }, 'two-step sign-in mail failed');
    });
  }
}
