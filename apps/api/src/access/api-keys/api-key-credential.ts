// An API key is `chrs_<keyId>_<secret>`: the key id finds the stored hash, the secret is checked against it.
// The secret has 256 random bits, so a plain SHA-256 hash is as safe as a slow password hash here.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

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

const HASH_PREFIX = 'sha256:';

export function hashSecret(secret: string): string {
  return `${HASH_PREFIX}${hash('sha256', secret, 'hex')}`;
}

/** The digest a stored hash holds, decoded once per key rather than per request; undefined: not one of ours. */
export function storedDigest(storedHash: string): Buffer | undefined {
  const digest = storedHash.startsWith(HASH_PREFIX)
    ? Buffer.from(storedHash.slice(HASH_PREFIX.length), 'hex')
    : undefined;
  return digest?.length === 32 ? digest : undefined;
}

/** Compares digests of equal length in constant time. */
export function secretMatchesDigest(secret: string, digest: Buffer | undefined): boolean {
  const offered = hash('sha256', secret, 'buffer');
  return digest !== undefined && offered.length === digest.length && timingSafeEqual(offered, digest);
}
