// Two-step sign-in, on the user's own stream: what the second factors are, and every use, failure and
// reset of them, for auditors. No event holds a usable secret: the authenticator app's secret is sealed
// (AES-256-GCM, SSO_SECRET_KEYS), recovery codes are SHA-256 digests, passkeys are public keys.

/** How a second step was passed: a code from the app, a passkey, a recovery code, or enrolling the first factor. */
export type SecondStepMethod = 'authenticator-app' | 'passkey' | 'recovery-code' | 'enrolment';

export type AuthenticatorAppEnrolled = { type: 'AuthenticatorAppEnrolled'; data: { secretSealed: string; at: string } };
export type AuthenticatorAppRemoved = { type: 'AuthenticatorAppRemoved'; data: { at: string } };

/** credentialId and publicKey base64url, as WebAuthn gives them; counter is the authenticator's signature counter. */
export type PasskeyRegistered = {
  type: 'PasskeyRegistered';
  data: { credentialId: string; publicKey: string; counter: number; transports: string[]; name: string; at: string };
};
export type PasskeyRenamed = { type: 'PasskeyRenamed'; data: { credentialId: string; name: string; at: string } };
export type PasskeyRemoved = { type: 'PasskeyRemoved'; data: { credentialId: string; at: string } };

/** Ten new codes replace any earlier ones; only their SHA-256 digests are kept. */
export type RecoveryCodesGenerated = { type: 'RecoveryCodesGenerated'; data: { codeHashes: string[]; at: string } };

/**
 * The second step was passed: the half-open session `previousSessionId` ended and the full session
 * `sessionId` began (a new id, as after any change of privilege). What was used is kept so that nothing is
 * used twice: the authenticator app's time step, the passkey's counter, the recovery code's digest.
 */
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

/** A wrong code or a passkey that did not verify, counted before it was checked (sign-in-attempts-second-step-<id>). */
export type SecondStepFailed = {
  type: 'SecondStepFailed';
  data: { sessionId: string; method: Exclude<SecondStepMethod, 'enrolment'>; at: string };
};

/**
 * Every second factor of this member was removed at the asking of an owner of `organizationId` (the metadata
 * says which owner, or key): at once for an account the organization answers for (`account-of-organization`:
 * made by its SSO, or of a domain it verified), or once the person confirmed a mailed link (`confirmed-by-person`).
 * Absent in events recorded before the distinction: those were resets of members by their owners.
 */
export type SecondFactorsReset = {
  type: 'SecondFactorsReset';
  data: { organizationId: string; authority?: 'account-of-organization' | 'confirmed-by-person'; at: string };
};

/**
 * An owner of `organizationId` asked to reset the factors of an account the organization does not answer for:
 * nothing changes until the person confirms through the link mailed to them (its token's digest here).
 */
export type SecondFactorsResetRequested = {
  type: 'SecondFactorsResetRequested';
  data: { organizationId: string; tokenHash: string; expiresAt: string; at: string };
};

/** How a change of factors was confirmed in its own request (FactorChangeConfirmed). */
export type FactorChangeConfirmation = 'password' | 'authenticator-app' | 'recovery-code' | 'recent-sign-in';

/**
 * A change of the account's factors was confirmed in its request: by the password (checked outside), a code of
 * the authenticator app or a recovery code (each usable once, as at the second step), or, for an account with
 * neither a password nor an app, a sign-in of the last few minutes. The change follows in the same request.
 */
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

/** Every type above, checked by the compiler: the audit's member security list reads this. */
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
