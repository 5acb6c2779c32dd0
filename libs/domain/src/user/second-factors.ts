// The second factors' one fold and every decision about them (set up, prove, confirm, reset), all reading the same
// state.
// Codes and signatures are checked outside (they need the secret and the crypto); decided here: what may be
// used, and that nothing is used twice.
import { DomainError, InvalidToken } from '../errors.js';
import type { SecondStepAwaited } from './events.js';
import type { FactorChangeConfirmed, SecondFactorEvent, SecondStepMethod } from './second-factor-events.js';

export type Passkey = {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  registeredAt: string;
  lastUsedAt: string | null;
};

export type SecondFactors = {
  /** A code of lastTimeStep or before is refused. */
  authenticatorApp: { secretSealed: string; enrolledAt: string; lastTimeStep: number | null } | null;
  passkeys: Passkey[];
  recoveryCodes: { unused: string[]; generatedAt: string } | null;
  resetRequests: readonly ResetRequest[];
};

export type ResetRequest = { organizationId: string; tokenHash: string; expiresAt: string };

export const noSecondFactors: SecondFactors = {
  authenticatorApp: null,
  passkeys: [],
  recoveryCodes: null,
  resetRequests: [],
};

/** For an account with no password and no app, a sign-in this recent confirms a change of factors. */
export const RECENT_SIGN_IN_MS = 5 * 60_000;
export const RESET_REQUEST_LIFETIME_MS = 72 * 3_600_000;

export const RECOVERY_CODE_COUNT = 10;
export const MAX_PASSKEYS = 10;
export const MAX_PASSKEY_NAME_LENGTH = 64;

/** Recovery codes are a way back in, not a factor: an account with codes only is asked for nothing. */
export const hasSecondFactor = (factors: SecondFactors): boolean =>
  factors.authenticatorApp !== null || factors.passkeys.length > 0;

/**
 * A provider MFA the organization trusts stands in for the account's factors, not for other organizations' requirement.
 */
export function secondStepAwaited(
  factors: SecondFactors,
  requiredByAnOrganization: boolean,
  providerMfaTrusted = false,
): SecondStepAwaited | undefined {
  if (providerMfaTrusted && !requiredByAnOrganization) return undefined;
  if (hasSecondFactor(factors)) return 'second-step';
  return requiredByAnOrganization ? 'enrolment' : undefined;
}

const withoutOrphanCodes = (factors: SecondFactors): SecondFactors =>
  hasSecondFactor(factors) ? factors : { ...factors, recoveryCodes: null };

export function evolveSecondFactors(factors: SecondFactors, event: SecondFactorEvent): SecondFactors {
  switch (event.type) {
    case 'AuthenticatorAppEnrolled':
      return {
        ...factors,
        authenticatorApp: { secretSealed: event.data.secretSealed, enrolledAt: event.data.at, lastTimeStep: null },
      };
    case 'AuthenticatorAppRemoved':
      return withoutOrphanCodes({ ...factors, authenticatorApp: null });
    case 'PasskeyRegistered': {
      const { credentialId, publicKey, counter, transports, name, at } = event.data;
      return {
        ...factors,
        passkeys: [
          ...factors.passkeys,
          { credentialId, publicKey, counter, transports, name, registeredAt: at, lastUsedAt: null },
        ],
      };
    }
    case 'PasskeyRenamed':
      return {
        ...factors,
        passkeys: factors.passkeys.map((key) =>
          key.credentialId === event.data.credentialId ? { ...key, name: event.data.name } : key,
        ),
      };
    case 'PasskeyRemoved':
      return withoutOrphanCodes({
        ...factors,
        passkeys: factors.passkeys.filter((key) => key.credentialId !== event.data.credentialId),
      });
    case 'RecoveryCodesGenerated':
      return { ...factors, recoveryCodes: { unused: [...event.data.codeHashes], generatedAt: event.data.at } };
    case 'FactorChangeConfirmed':
      return withCodesUsed(factors, event.data);
    case 'SecondStepPassed': {
      const { credentialId, counter, at } = event.data;
      let next = withCodesUsed(factors, event.data);
      if (credentialId !== undefined) {
        next = {
          ...next,
          passkeys: next.passkeys.map((key) =>
            key.credentialId === credentialId ? { ...key, counter: counter ?? key.counter, lastUsedAt: at } : key,
          ),
        };
      }
      return next;
    }
    case 'SecondStepFailed':
      return factors;
    case 'SecondFactorsReset':
      return noSecondFactors;
    case 'SecondFactorsResetRequested': {
      const { organizationId, tokenHash, expiresAt, at } = event.data;
      const live = factors.resetRequests.filter((request) => Date.parse(request.expiresAt) > Date.parse(at));
      return { ...factors, resetRequests: [...live, { organizationId, tokenHash, expiresAt }] };
    }
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

type CodesUsed = { timeStep?: number | undefined; recoveryCodeHash?: string | undefined };

function withCodesUsed(factors: SecondFactors, { timeStep, recoveryCodeHash }: CodesUsed): SecondFactors {
  let next = factors;
  if (timeStep !== undefined && next.authenticatorApp !== null) {
    next = {
      ...next,
      authenticatorApp: {
        ...next.authenticatorApp,
        lastTimeStep: Math.max(timeStep, next.authenticatorApp.lastTimeStep ?? timeStep),
      },
    };
  }
  if (recoveryCodeHash !== undefined && next.recoveryCodes !== null) {
    next = {
      ...next,
      recoveryCodes: {
        ...next.recoveryCodes,
        unused: next.recoveryCodes.unused.filter((hash) => hash !== recoveryCodeHash),
      },
    };
  }
  return next;
}

export type FactorChangeProof =
  | { method: 'password' }
  | { method: 'authenticator-app'; timeStep: number }
  | { method: 'recovery-code'; codeHash: string }
  | { method: 'recent-sign-in'; signedInAt: string };

export type ResetAuthority =
  { kind: 'account-of-organization'; organizationId: string } | { kind: 'confirmed-by-person'; tokenHash: string };

export type SecondStepProof =
  | { method: 'authenticator-app'; timeStep: number }
  | { method: 'passkey'; credentialId: string; counter: number }
  | { method: 'recovery-code'; codeHash: string }
  | { method: 'enrolment' };

export type SecondFactorCommand =
  | { type: 'EnrolAuthenticatorApp'; data: { secretSealed: string; recoveryCodeHashes: string[] } }
  | { type: 'RemoveAuthenticatorApp'; data: Record<string, never> }
  | {
      type: 'RegisterPasskey';
      data: {
        credentialId: string;
        publicKey: string;
        counter: number;
        transports: string[];
        name: string;
        recoveryCodeHashes: string[];
      };
    }
  | { type: 'RenamePasskey'; data: { credentialId: string; name: string } }
  | { type: 'RemovePasskey'; data: { credentialId: string } }
  | { type: 'RegenerateRecoveryCodes'; data: { codeHashes: string[] } }
  | {
      type: 'PassSecondStep';
      data: { previousSessionId: string; sessionId: string; absoluteExpiresAt: Date; proof: SecondStepProof };
    }
  | { type: 'FailSecondStep'; data: { sessionId: string; method: Exclude<SecondStepMethod, 'enrolment'> } }
  /** Confirmation and change are recorded together, or not at all. */
  | { type: 'ConfirmFactorChange'; data: { proof: FactorChangeProof; change: FactorChangeCommand } }
  | { type: 'RequestSecondFactorsReset'; data: { organizationId: string; tokenHash: string; expiresAt: Date } }
  | { type: 'ResetSecondFactors'; data: ResetAuthority };

export type FactorChangeCommand = Extract<
  SecondFactorCommand,
  {
    type:
      | 'EnrolAuthenticatorApp'
      | 'RegisterPasskey'
      | 'RenamePasskey'
      | 'RemovePasskey'
      | 'RemoveAuthenticatorApp'
      | 'RegenerateRecoveryCodes';
  }
>;

export type SecondFactorContext = {
  at: string;
  /** The last factor may not be removed. */
  twoStepRequired: boolean;
  /** Then a sign-in alone no longer confirms changes. */
  hasPassword: boolean;
};

const reauthenticate = (detail: string) => new DomainError('REAUTHENTICATION_REQUIRED', detail);

function confirmedChange(
  factors: SecondFactors,
  proof: FactorChangeProof,
  { at, hasPassword }: SecondFactorContext,
): FactorChangeConfirmed {
  switch (proof.method) {
    case 'password':
      if (!hasPassword)
        throw new DomainError('WRONG_PASSWORD', 'This account has no password: confirm with a code instead.', {
          field: 'password',
        });
      return { type: 'FactorChangeConfirmed', data: { method: 'password', at } };
    case 'authenticator-app':
    case 'recovery-code':
      return { type: 'FactorChangeConfirmed', data: { method: proof.method, ...verifiedProof(factors, proof), at } };
    case 'recent-sign-in': {
      if (hasPassword || factors.authenticatorApp !== null) {
        const ways = [
          hasPassword ? 'your password' : null,
          factors.authenticatorApp !== null ? 'a code from your authenticator app' : null,
        ].filter((way) => way !== null);
        throw reauthenticate(`Confirm this change with ${ways.join(' or ')}.`);
      }
      if (Date.parse(at) - Date.parse(proof.signedInAt) > RECENT_SIGN_IN_MS) {
        throw reauthenticate(
          `Sign in again first: a change of two-step sign-in needs a sign-in of the last ${RECENT_SIGN_IN_MS / 60_000} minutes.`,
        );
      }
      return { type: 'FactorChangeConfirmed', data: { method: 'recent-sign-in', at } };
    }
    default: {
      const _exhaustive: never = proof;
      return _exhaustive;
    }
  }
}

const hasAnythingToReset = (factors: SecondFactors): boolean =>
  hasSecondFactor(factors) || factors.recoveryCodes !== null;

export class InvalidCode extends DomainError {
  constructor(message = 'The code is not correct.') {
    super('INVALID_CODE', message);
  }
}

function passkeyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_PASSKEY_NAME_LENGTH) {
    throw new DomainError('VALIDATION_FAILED', `A passkey's name is 1 to ${MAX_PASSKEY_NAME_LENGTH} characters.`, {
      field: 'name',
    });
  }
  return trimmed;
}

function recoveryCodesFor(factors: SecondFactors, hashes: readonly string[], at: string): SecondFactorEvent[] {
  if (hasSecondFactor(factors)) return [];
  if (hashes.length !== RECOVERY_CODE_COUNT)
    throw new DomainError('VALIDATION_FAILED', `Enrolling a first factor needs ${RECOVERY_CODE_COUNT} recovery codes.`);
  return [{ type: 'RecoveryCodesGenerated', data: { codeHashes: [...hashes], at } }];
}

function refuseLastFactor(
  factors: SecondFactors,
  remaining: SecondFactors,
  { twoStepRequired }: SecondFactorContext,
): void {
  if (twoStepRequired && hasSecondFactor(factors) && !hasSecondFactor(remaining)) {
    throw new DomainError(
      'TWO_STEP_REQUIRED',
      'Your organization requires two-step sign-in: set up another way first.',
    );
  }
}

function verifiedProof(
  factors: SecondFactors,
  proof: SecondStepProof,
): Pick<SecondStepPassed['data'], 'timeStep' | 'credentialId' | 'counter' | 'recoveryCodeHash'> {
  switch (proof.method) {
    case 'authenticator-app': {
      const app = factors.authenticatorApp;
      if (app === null) throw new InvalidCode();
      // RFC 6238 5.2: one of the same or an earlier step is a replay.
      if (app.lastTimeStep !== null && proof.timeStep <= app.lastTimeStep) {
        throw new DomainError('CODE_ALREADY_USED', 'This code was used already: wait for the next one.');
      }
      return { timeStep: proof.timeStep };
    }
    case 'passkey': {
      const passkey = factors.passkeys.find((key) => key.credentialId === proof.credentialId);
      if (passkey === undefined) throw new InvalidCode('This passkey is not one of the account’s.');
      // WebAuthn 6.1.1: a counter that does not grow (where the authenticator keeps one) may be a cloned key.
      if ((proof.counter > 0 || passkey.counter > 0) && proof.counter <= passkey.counter)
        throw new InvalidCode('This passkey could not be verified.');
      return { credentialId: proof.credentialId, counter: proof.counter };
    }
    case 'recovery-code':
      if (factors.recoveryCodes?.unused.includes(proof.codeHash) !== true) throw new InvalidCode();
      return { recoveryCodeHash: proof.codeHash };
    case 'enrolment':
      if (!hasSecondFactor(factors)) throw new DomainError('NO_SECOND_FACTOR', 'Set up a second factor first.');
      return {};
    default: {
      const _exhaustive: never = proof;
      return _exhaustive;
    }
  }
}

type SecondStepPassed = Extract<SecondFactorEvent, { type: 'SecondStepPassed' }>;

export function decideSecondFactors(
  command: SecondFactorCommand,
  factors: SecondFactors,
  context: SecondFactorContext,
): SecondFactorEvent[] {
  const { at } = context;
  switch (command.type) {
    case 'EnrolAuthenticatorApp':
      if (factors.authenticatorApp !== null)
        throw new DomainError('DUPLICATE', 'An authenticator app is set up already: remove it first.');
      return [
        { type: 'AuthenticatorAppEnrolled', data: { secretSealed: command.data.secretSealed, at } },
        ...recoveryCodesFor(factors, command.data.recoveryCodeHashes, at),
      ];
    case 'RemoveAuthenticatorApp':
      if (factors.authenticatorApp === null) return [];
      refuseLastFactor(factors, { ...factors, authenticatorApp: null }, context);
      return [{ type: 'AuthenticatorAppRemoved', data: { at } }];
    case 'RegisterPasskey': {
      const { credentialId, publicKey, counter, transports, recoveryCodeHashes } = command.data;
      const name = passkeyName(command.data.name);
      if (factors.passkeys.some((key) => key.credentialId === credentialId))
        throw new DomainError('DUPLICATE', 'This passkey is registered already.');
      if (factors.passkeys.length >= MAX_PASSKEYS)
        throw new DomainError('VALIDATION_FAILED', `An account keeps at most ${MAX_PASSKEYS} passkeys.`);
      return [
        { type: 'PasskeyRegistered', data: { credentialId, publicKey, counter, transports, name, at } },
        ...recoveryCodesFor(factors, recoveryCodeHashes, at),
      ];
    }
    case 'RenamePasskey': {
      const passkey = factors.passkeys.find((key) => key.credentialId === command.data.credentialId);
      if (passkey === undefined) throw new DomainError('NOT_FOUND', 'No such passkey.', { entity: 'passkey' });
      const name = passkeyName(command.data.name);
      return name === passkey.name
        ? []
        : [{ type: 'PasskeyRenamed', data: { credentialId: passkey.credentialId, name, at } }];
    }
    case 'RemovePasskey': {
      const remaining = factors.passkeys.filter((key) => key.credentialId !== command.data.credentialId);
      if (remaining.length === factors.passkeys.length)
        throw new DomainError('NOT_FOUND', 'No such passkey.', { entity: 'passkey' });
      refuseLastFactor(factors, { ...factors, passkeys: remaining }, context);
      return [{ type: 'PasskeyRemoved', data: { credentialId: command.data.credentialId, at } }];
    }
    case 'RegenerateRecoveryCodes':
      if (!hasSecondFactor(factors))
        throw new DomainError('NO_SECOND_FACTOR', 'Recovery codes come with a second factor: set one up first.');
      if (command.data.codeHashes.length !== RECOVERY_CODE_COUNT)
        throw new DomainError('VALIDATION_FAILED', `Recovery codes come ${RECOVERY_CODE_COUNT} at a time.`);
      return [{ type: 'RecoveryCodesGenerated', data: { codeHashes: [...command.data.codeHashes], at } }];
    case 'PassSecondStep': {
      const { previousSessionId, sessionId, absoluteExpiresAt, proof } = command.data;
      const used = verifiedProof(factors, proof);
      return [
        {
          type: 'SecondStepPassed',
          data: {
            previousSessionId,
            sessionId,
            method: proof.method,
            absoluteExpiresAt: absoluteExpiresAt.toISOString(),
            ...used,
            at,
          },
        },
      ];
    }
    case 'FailSecondStep':
      return [
        { type: 'SecondStepFailed', data: { sessionId: command.data.sessionId, method: command.data.method, at } },
      ];
    case 'ConfirmFactorChange': {
      // Decided first: a change refused, or that changes nothing, spends no code.
      const changed = decideSecondFactors(command.data.change, factors, context);
      return changed.length === 0 ? [] : [confirmedChange(factors, command.data.proof, context), ...changed];
    }
    case 'RequestSecondFactorsReset': {
      const { organizationId, tokenHash, expiresAt } = command.data;
      if (!hasAnythingToReset(factors)) return [];
      return [
        {
          type: 'SecondFactorsResetRequested',
          data: { organizationId, tokenHash, expiresAt: expiresAt.toISOString(), at },
        },
      ];
    }
    case 'ResetSecondFactors': {
      const authority = command.data;
      if (authority.kind === 'account-of-organization') {
        return hasAnythingToReset(factors)
          ? [
              {
                type: 'SecondFactorsReset',
                data: { organizationId: authority.organizationId, authority: authority.kind, at },
              },
            ]
          : [];
      }
      const request = factors.resetRequests.find((candidate) => candidate.tokenHash === authority.tokenHash);
      if (request === undefined || Date.parse(request.expiresAt) <= Date.parse(at))
        throw new InvalidToken('This link is no longer valid.');
      return [
        { type: 'SecondFactorsReset', data: { organizationId: request.organizationId, authority: authority.kind, at } },
      ];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}
