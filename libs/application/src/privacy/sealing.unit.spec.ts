// Sealed values under one key: every one with an IV of its own (AES-GCM's one rule), across the IV pool's refills.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { seal, unseal } from './sealing.js';

describe('sealing', () => {
  it('gives every sealed value an IV of its own, across many draws of the IV pool, and each opens to its value', () => {
    const key = randomBytes(32);
    const count = 5_000;
    const sealed = Array.from({ length: count }, (_, index) => seal(key, 'person:ada', `ada+${index}@example.test`));

    const ivs = new Set(sealed.map((value) => value.$sealed.split('~').at(-2)));
    expect(ivs.size).toBe(count);
    expect(sealed.map((value) => unseal(key, value))).toEqual(
      Array.from({ length: count }, (_, index) => `ada+${index}@example.test`),
    );
  });
});
