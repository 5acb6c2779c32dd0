// Answer shapes of the sign-in, session, invitation and two-step routes (docs/api.md, Sign-in), in the style of
// sign-in-requests.ts: the single source of their schemas in /docs/openapi.json (through `@Operation({ answer })`).
import { z } from 'zod';

/** POST /forgot: the same words whatever the address. */
export const forgotAnswerSchema = z.object({ message: z.string() });

export const resetValidityAnswer = z.object({ valid: z.boolean() });

/** GET /session (SessionAnswer). */
export const sessionAnswer = z.object({
  user: z.object({ id: z.string(), email: z.string(), username: z.string().nullable() }),
  organizations: z.array(z.object({ id: z.string(), name: z.string(), role: z.string() })),
});

/** GET /sessions. */
export const sessionsAnswer = z.object({
  sessions: z.array(
    z.object({
      id: z.string(),
      method: z.string(),
      secondStepPending: z.boolean().describe('The password was right, the second step is not passed (yet)'),
      startedAt: z.string(),
      lastActiveAt: z.string(),
      expiresAt: z.string(),
      userAgent: z.string().nullable(),
      current: z.boolean(),
    }),
  ),
});

/** GET /invitations/:token (InvitationDetails). */
export const invitationAnswer = z.object({
  email: z.string(),
  organizationName: z.string(),
  expiresAt: z.string(),
  singleSignOn: z
    .string()
    .nullable()
    .describe(
      'Where to join instead of choosing a password, when an organization enforces single sign-on for the address',
    ),
});

/** GET /account/two-step (TwoStepAnswer). */
export const twoStepAnswer = z.object({
  confirmWith: z.enum(['password', 'code', 'recent-sign-in']),
  authenticatorApp: z.object({ enrolledAt: z.string() }).nullable(),
  passkeys: z.array(
    z.object({ id: z.string(), name: z.string(), registeredAt: z.string(), lastUsedAt: z.string().nullable() }),
  ),
  recoveryCodes: z.object({ remaining: z.int(), generatedAt: z.string() }).nullable(),
  requiredBy: z.array(z.object({ id: z.string(), name: z.string() })),
});

/** Starting an authenticator app: its secret, otpauth URI, QR code (a data: URL) and the sealed setup to send back. */
export const authenticatorAppStartAnswer = z.object({
  secret: z.string(),
  uri: z.string(),
  qrCode: z.string(),
  setup: z.string(),
});

/** A factor set up: recovery codes for a first factor (shown once), else null. */
export const factorSetUpAnswer = z.object({ recoveryCodes: z.array(z.string()).nullable() });

export const recoveryCodesAnswer = z.object({ recoveryCodes: z.array(z.string()) });

/** WebAuthn's PublicKeyCredentialCreationOptionsJSON (as @simplewebauthn/browser takes it) and the sealed challenge. */
export const passkeyRegistrationOptionsAnswer = z.object({
  options: z.looseObject({
    challenge: z.string(),
    rp: z.looseObject({ name: z.string() }),
    user: z.looseObject({ id: z.string(), name: z.string() }),
  }),
  registration: z.string(),
});

/** WebAuthn's PublicKeyCredentialRequestOptionsJSON and the sealed challenge. */
export const passkeySignInOptionsAnswer = z.object({
  options: z.looseObject({ challenge: z.string() }),
  challenge: z.string(),
});

/** GET /session/second-step (SecondStepStatus). */
export const secondStepStatusAnswer = z.object({
  awaiting: z.enum(['second-step', 'enrolment']),
  email: z.string(),
  methods: z.object({ authenticatorApp: z.boolean(), passkeys: z.int(), recoveryCodes: z.int() }),
  requiredBy: z.array(z.string()),
});

/** POST /two-step-reset/validity (TwoStepResetValidity). */
export const twoStepResetValidityAnswer = z.union([
  z.object({ valid: z.literal(false) }),
  z.object({ valid: z.literal(true), organizationName: z.string(), passwordRequired: z.boolean() }),
]);
