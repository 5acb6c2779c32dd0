// An API key is `chrs_<keyId>_<secret>`: the key id finds the stored hash, the secret is checked against it.
// The secret has 256 random bits, so a plain SHA-256 hash is as safe as a slow password hash here.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const API_KEY = /^chrs_([0-9a-f]{24})_([A-Za-z0-9_-]{43})$/;

export type ApiKeyCredential = { keyId: string; secret: string };

export function generateApiKey(): ApiKeyCredential & { key: string } {
  const keyId = randomBytes(12).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { keyId, secret, key: `chrs_${keyId}_${secret}` };
}

export function parseApiKey(key: string): ApiKeyCredential | undefined {
  const match = API_KEY.exec(key);
  return match?.[1] !== undefined && match[2] !== undefined ? { keyId: match[1], secret: match[2] } : undefined;
}

export function hashSecret(secret: string): string {
  return `sha256:${createHash('sha256').update(secret).digest('hex')}`;
}

/** Compares digests of equal length in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const offered = Buffer.from(hashSecret(secret));
  const stored = Buffer.from(storedHash);
  return offered.length === stored.length && timingSafeEqual(offered, stored);
}
