import type { HttpClient } from '../../../lib/http-client';

export type NewPassword = { token: string; password: string };

// 204 when the password is changed; 400 INVALID_TOKEN or VALIDATION_FAILED otherwise (docs/api.md, Sign-in).
export async function resetPassword(http: HttpClient, newPassword: NewPassword): Promise<void> {
  await http.post('/reset', newPassword);
}
