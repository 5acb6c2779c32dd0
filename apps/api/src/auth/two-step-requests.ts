// The bodies of two-step sign-in's calls. WebAuthn responses are checked whole by @simplewebauthn/server;
// here only their outline and size.
import { z } from 'zod';
import { MAX_PASSKEY_NAME_LENGTH } from '#domain';

export const secondStepCodeRequest = z.strictObject({ code: z.string().min(1).max(64) });

/**
 * What confirms a change of factors in its request (TwoStep's ChangeConfirmation): the password, or a code of the
 * authenticator app or a recovery code; neither, for an account with no password and no app, a recent sign-in.
 */
const confirmation = { password: z.string().min(1).max(1024).optional(), code: z.string().min(1).max(64).optional() };
export const changeConfirmation = z
  .strictObject(confirmation)
  .optional()
  .transform((body) => body ?? {});

/** code: the new app's first code, which proves it was scanned; password confirms the change. */
export const authenticatorAppConfirmation = z.strictObject({
  setup: z.string().min(1).max(2048),
  code: z.string().min(1).max(64),
  password: confirmation.password,
});

/**
 * A PublicKeyCredential as JSON (RegistrationResponseJSON / AuthenticationResponseJSON): checked in full by the
 * library.
 */
const webAuthnResponse = z.looseObject({
  id: z.string().min(1).max(2048),
  rawId: z.string().max(2048),
  type: z.literal('public-key'),
  response: z.looseObject({}),
});

export const passkeyRegistrationRequest = z.strictObject({
  registration: z.string().min(1).max(2048),
  name: z.string().max(MAX_PASSKEY_NAME_LENGTH * 4),
  response: webAuthnResponse,
  ...confirmation,
});

export const passkeySignInRequest = z.strictObject({
  challenge: z.string().min(1).max(2048),
  response: webAuthnResponse,
});

export const passkeyRenameRequest = z.strictObject({
  name: z.string().max(MAX_PASSKEY_NAME_LENGTH * 4),
  ...confirmation,
});

/** A passkey's credential id: base64url. */
export const passkeyIdParameter = z.string().regex(/^[A-Za-z0-9_-]{1,1366}$/, 'must be a passkey id');
