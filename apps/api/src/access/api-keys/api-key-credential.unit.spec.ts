import { describe, expect, it } from '@jest/globals';
import { generateApiKey, hashSecret, parseApiKey, secretMatchesDigest, storedDigest } from './api-key-credential.js';

describe('API key credentials', () => {
  it('generates keys that parse back into their id and secret', () => {
    const { key, keyId, secret } = generateApiKey();

    expect(key).toMatch(/^chrs_[0-9a-f]{24}_[A-Za-z0-9_-]{43}$/);
    expect(parseApiKey(key)).toEqual({ keyId, secret });
  });

  it('never generates the same key twice', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));

    expect(keys.size).toBe(200);
  });

  it.each([
    '',
    'chrs_',
    'chrs_abc_def',
    `CHRS_${'a'.repeat(24)}_${'b'.repeat(43)}`,
    `chrs_${'a'.repeat(24)}_${'b'.repeat(44)}`,
  ])('refuses the malformed key %p', (key) => {
    expect(parseApiKey(key)).toBeUndefined();
  });

  it('matches a secret only against its own hash, which does not contain it', () => {
    const { secret } = generateApiKey();
    const stored = hashSecret(secret);

    expect(stored).not.toContain(secret);
    expect(secretMatchesDigest(secret, storedDigest(stored))).toBe(true);
    expect(secretMatchesDigest(generateApiKey().secret, storedDigest(stored))).toBe(false);
    expect(secretMatchesDigest(secret, storedDigest('sha256:short'))).toBe(false);
  });
});
