// No event holds a usable secret: the app's secret is sealed, recovery codes are digests, passkeys are public keys.

export type SecondStepMethod = 'authenticator-app' | 'passkey' | 'recovery-code' | 'enrolment';

export type AuthenticatorAppEnrolled = { type: 'AuthenticatorAppEnrolled'; data: { secretSealed: string; at: string } };
export type AuthenticatorAppRemoved = { type: 'AuthenticatorAppRemoved'; data: { at: string } };

/** credentialId and publicKey base64url, as WebAuthn gives them. */
export type PasskeyRegistered = {
  type: 'PasskeyRegistered';
  data: { credentialId: string; publicKey: string; counter: number; transports: string[]; name: string; at: string };
};
export type PasskeyRenamed = { type: 'PasskeyRenamed'; data: { credentialId: string; name: string; at: string } };
export type PasskeyRemoved = { type: 'PasskeyRemoved'; data: { credentialId: string; at: string } };

/** Replace any earlier ones. */
export type RecoveryCodesGenerated = { type: 'RecoveryCodesGenerated'; data: { codeHashes: string[]; at: string } };

/** What was used is kept so that nothing is used twice. */
export type SecondStepPassed = {
  type: 'SecondStepPassed';
  data: {
    previousSessionId: string;
    sessionId: string;
    method: SecondStepMethod;
    absoluteExpiresAt: string;
    timeStep?: number;
    credentialId?: string;
    counter?: number;
    recoveryCodeHash?: string;
    at: string;
  };
};

export type SecondStepFailed = {
  type: 'SecondStepFailed';
  data: { sessionId: string; method: Exclude<SecondStepMethod, 'enrolment'>; at: string };
};

/**
 * `owner-alone`: a reset by an owner before the organization had to answer for the account or the person to agree
 * (version 1).
 */
export type SecondFactorsReset = {
  type: 'SecondFactorsReset';
  data: {
    organizationId: string;
    authority: 'account-of-organization' | 'confirmed-by-person' | 'owner-alone';
    at: string;
  };
};

/** Nothing changes until the person confirms through the mailed link. */
export type SecondFactorsResetRequested = {
  type: 'SecondFactorsResetRequested';
  data: { organizationId: string; tokenHash: string; expiresAt: string; at: string };
};

export type FactorChangeConfirmation = 'password' | 'authenticator-app' | 'recovery-code' | 'recent-sign-in';

/** The change follows in the same append. */
export type FactorChangeConfirmed = {
  type: 'FactorChangeConfirmed';
  data: { method: FactorChangeConfirmation; timeStep?: number; recoveryCodeHash?: string; at: string };
};

export type SecondFactorEvent =
  | AuthenticatorAppEnrolled
  | AuthenticatorAppRemoved
  | PasskeyRegistered
  | PasskeyRenamed
  | PasskeyRemoved
  | RecoveryCodesGenerated
  | SecondStepPassed
  | SecondStepFailed
  | SecondFactorsReset
  | SecondFactorsResetRequested
  | FactorChangeConfirmed;

const secondFactorEventTypes: { [Type in SecondFactorEvent['type']]: true } = {
  AuthenticatorAppEnrolled: true,
  AuthenticatorAppRemoved: true,
  PasskeyRegistered: true,
  PasskeyRenamed: true,
  PasskeyRemoved: true,
  RecoveryCodesGenerated: true,
  SecondStepPassed: true,
  SecondStepFailed: true,
  SecondFactorsReset: true,
  SecondFactorsResetRequested: true,
  FactorChangeConfirmed: true,
};
export const SECOND_FACTOR_EVENT_TYPES = Object.keys(secondFactorEventTypes) as SecondFactorEvent['type'][];
