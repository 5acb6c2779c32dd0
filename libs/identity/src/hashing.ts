// Digests used for ids derived from secrets and for keys derived from SESSION_SECRET.
import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

export const hmacBase64Url = (key: Buffer, value: string): string =>
  createHmac('sha256', key).update(value, 'utf8').digest('base64url');

export const hmacHex = (key: Buffer, value: string): string =>
  createHmac('sha256', key).update(value, 'utf8').digest('hex');

/** Constant-time string comparison (different lengths are simply unequal). */
export function safeEqual(first: string, second: string): boolean {
  const a = Buffer.from(first, 'utf8');
  const b = Buffer.from(second, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** One independent key per purpose, so a value signed for one use is worthless in another. */
export const deriveKey = (
  secret: string,
  purpose:
    | 'session-cookie'
    | 'xsrf'
    | 'oauth-state'
    | 'sso-state'
    | 'sso-client-secret'
    | 'sign-in-attempts'
    | 'invitation-links'
    | 'two-step'
    | 'authenticator-app',
): Buffer => Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `chorus ${purpose}`, 32));
