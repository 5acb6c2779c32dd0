// Which hashes are upgraded at the next successful sign-in: those made with other parameters than today's.
import { describe, expect, it } from '@jest/globals';
import argon2 from 'argon2';
import { argon2Parameters, defaultHashesAtOnce, PasswordHasher, Turns } from './password-hasher.js';

describe('PasswordHasher.needsRehash', () => {
  const hasher = new PasswordHasher();

  it('keeps a hash made with today’s parameters, told by its prefix (argon2 writes them as m, p, t)', async () => {
    const hash = await hasher.hash('correct horse battery staple');
    expect(
      hash.startsWith(
        `$argon2id$v=19$m=${argon2Parameters.memoryCost},p=${argon2Parameters.parallelism},t=${argon2Parameters.timeCost}$`,
      ),
    ).toBe(true);
    expect(hasher.needsRehash(hash)).toBe(false);
  });

  it('upgrades a hash made with weaker parameters; today’s written in another order are left to argon2’s own check', async () => {
    const weaker = await argon2.hash('correct horse battery staple', {
      ...argon2Parameters,
      memoryCost: 4_096,
      timeCost: 1,
    });
    expect(hasher.needsRehash(weaker)).toBe(true);
    const current = await hasher.hash('correct horse battery staple');
    // The same parameters in another order are still today's (argon2's own check decides): no upgrade.
    const reordered = current.replace(/m=(\d+),p=(\d+),t=(\d+)/, 't=$3,m=$1,p=$2');
    expect(reordered).not.toBe(current);
    expect(hasher.needsRehash(reordered)).toBe(false);
  });
});

describe('argon2id computations at once (PASSWORD_HASHES_AT_ONCE)', () => {
  it('defaults to one more than the cores, leaving a thread of libuv’s pool for file and DNS work', () => {
    expect(defaultHashesAtOnce(2, 4)).toBe(3);
    expect(defaultHashesAtOnce(16, 4)).toBe(3);
    expect(defaultHashesAtOnce(1, 4)).toBe(2);
    expect(defaultHashesAtOnce(8, 16)).toBe(9);
    expect(defaultHashesAtOnce(8, 1)).toBe(1);
    expect(new PasswordHasher().hashesAtOnce).toBe(defaultHashesAtOnce());
    expect(() => new PasswordHasher({ hashesAtOnce: 0 })).toThrow(RangeError);
  });

  it('gives turns first come, first served, never more than the limit at once, and passes a turn on after a failure', async () => {
    const turns = new Turns(2);
    const started: number[] = [];
    const releases: (() => void)[] = [];
    let running = 0;
    let most = 0;
    const work = (index: number) =>
      turns.run(async () => {
        started.push(index);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        if (index === 3) throw new Error('a failed computation');
        return index;
      });
    const all = Promise.allSettled(Array.from({ length: 8 }, (_unused, index) => work(index)));
    const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
    await tick();
    expect(started).toEqual([0, 1]);
    // Always the latest started finishes first: the next in line still starts next.
    while (releases.length > 0) {
      releases.pop()?.();
      await tick();
      expect(running).toBeLessThanOrEqual(2);
    }
    const outcomes = await all;
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(2);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
  });

  it('runs real checks, checks for nobody and new hashes through the same turns, at most the limit at once', async () => {
    const hasher = new PasswordHasher({ hashesAtOnce: 2 });
    const hash = await hasher.hash('correct horse battery staple');
    const before = hasher.verifications;
    const outcomes = await Promise.all([
      ...Array.from({ length: 3 }, () => hasher.verify(hash, 'correct horse battery staple')),
      ...Array.from({ length: 3 }, () => hasher.verify(hash, 'wrong')),
      ...Array.from({ length: 3 }, () => hasher.verifyNobody('correct horse battery staple')),
      hasher.hash('another password, long enough').then((made) => made.startsWith('$argon2id$')),
    ]);
    expect(outcomes).toEqual([true, true, true, false, false, false, false, false, false, true]);
    expect(hasher.verifications - before).toBe(9);
    expect(hasher.mostHashesAtOnce).toBe(2);
  }, 60_000);
});
