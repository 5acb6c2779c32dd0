// Which hashes are upgraded at the next successful sign-in: those made with other parameters than today's.
import { describe, expect, it } from '@jest/globals';
import argon2 from 'argon2';
import { argon2Parameters, PasswordHasher } from './password-hasher.js';

describe('PasswordHasher.needsRehash', () => {
  const hasher = new PasswordHasher();

  it('keeps a hash made with today’s parameters, told by its prefix (argon2 writes them as m, p, t)', async () => {
    const hash = await hasher.hash('correct horse battery staple');
    expect(hash.startsWith(`$argon2id$v=19$m=${argon2Parameters.memoryCost},p=${argon2Parameters.parallelism},t=${argon2Parameters.timeCost}$`)).toBe(true);
    expect(hasher.needsRehash(hash)).toBe(false);
  });

  it('upgrades a hash made with weaker parameters; today’s written in another order are left to argon2’s own check', async () => {
    const weaker = await argon2.hash('correct horse battery staple', { ...argon2Parameters, memoryCost: 4_096, timeCost: 1 });
    expect(hasher.needsRehash(weaker)).toBe(true);
    const current = await hasher.hash('correct horse battery staple');
    // The same parameters in another order are still today's (argon2's own check decides): no upgrade.
    const reordered = current.replace(/m=(\d+),p=(\d+),t=(\d+)/, 't=$3,m=$1,p=$2');
    expect(reordered).not.toBe(current);
    expect(hasher.needsRehash(reordered)).toBe(false);
  });
});
