// NIST SP 800-63B / OWASP ASVS 2.1: length only (8 to 256 characters, counted after Unicode
// normalization), no composition rules, and no password from a list of common/breached ones.
import { dictionary } from '@zxcvbn-ts/language-common';

export const minPasswordLength = 8;
export const maxPasswordLength = 256;

/** zxcvbn's offline list of the most common passwords from real breaches (lower case). */
const commonPasswords: ReadonlySet<string> = new Set(dictionary['passwords-common']);

/** NFKC, so the same password typed on different keyboards or systems hashes the same. */
export const normalizePassword = (password: string): string => password.normalize('NFKC');

export type PasswordContext = { email?: string; username?: string | null };

/** The policy's message for a refused password, or null when it is acceptable. */
export function passwordPolicyViolation(password: string, context: PasswordContext = {}): string | null {
  const normalized = normalizePassword(password);
  const length = [...normalized].length;
  if (length < minPasswordLength) return `The password must be at least ${minPasswordLength} characters long.`;
  if (length > maxPasswordLength) return `The password must be at most ${maxPasswordLength} characters long.`;
  const lower = normalized.toLowerCase();
  if (commonPasswords.has(lower)) {
    return 'This password is one of the most common (breached) passwords; choose another.';
  }
  const own = [context.email, context.email?.split('@')[0], context.username ?? undefined];
  if (own.some((value) => value !== undefined && value.toLowerCase() === lower)) {
    return 'The password must not be your e-mail address or username.';
  }
  return null;
}
