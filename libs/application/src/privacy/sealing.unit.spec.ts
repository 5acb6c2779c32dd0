// Sealed values under one key: every one with an IV of its own (AES-GCM's one rule), across the IV pool's refills.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { RecentlyOpened, seal, unseal } from './sealing.js';

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

  it('serves a string it opened again without opening it, and a list or an object opened anew each time', () => {
    const key = randomBytes(32);
    const wrongKey = randomBytes(32);
    const opened = new RecentlyOpened();
    const address = seal(key, 'person:ada', 'ada@example.test');
    const roles = seal(key, 'person:ada', ['owner']);

    expect(opened.open(key, address)).toBe('ada@example.test');
    // Kept: a key that could not open it is never used.
    expect(opened.open(wrongKey, address)).toBe('ada@example.test');
    expect(opened.open(key, roles)).toEqual(['owner']);
    expect(() => opened.open(wrongKey, roles)).toThrow(/authenticate/);

    opened.forget();
    expect(() => opened.open(wrongKey, address)).toThrow(/authenticate/);
  });
});
