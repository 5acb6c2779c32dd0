// The sign-in bodies (seed section 3). Strings of any content are accepted as credentials; the
// caps only keep absurd bodies away from argon2.
import { z } from 'zod';

export const loginRequest = z.strictObject({
  username: z.string().max(320),
  password: z.string().max(4096),
});

export const forgotRequest = z.strictObject({ email: z.string().max(320) });

export const resetRequest = z.strictObject({
  token: z.string().max(200),
  password: z.string().max(4096),
});

export const resetValidityRequest = z.strictObject({ token: z.string().max(200) });

export const sessionIdParameter = z.string().regex(/^[0-9a-f]{64}$/, 'must be a session id');

/** The console's Account page: the current password, and the new one (typed twice in the page, sent once). */
export const changePasswordRequest = z.strictObject({
  currentPassword: z.string().max(4096),
  newPassword: z.string().max(4096),
});

export const acceptInvitationRequest = z.strictObject({
  token: z.string().max(200),
  password: z.string().max(4096),
});

export const invitationTokenParameter = z.string().max(200);
