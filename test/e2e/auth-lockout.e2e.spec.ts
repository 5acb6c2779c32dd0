// The failed-login lockout must hold however many guesses arrive at once, whatever the
// attacker forges, and across API nodes sharing one store. What is counted is the real work an
// attacker gets: argon2id verifications (the hasher's own count), not answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { ManualClock } from '#identity';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
// One attacker request: a browser of its own (its own XSRF cookie), the login page, then a guess.
import { burstClock, signInAttempt as guess, statusCounts as statuses } from '../support/sign-in-attempts.js';

const password = 'correct horse battery staple';
const dayAndMore = 25 * 3_600_000;

const forgedAddress = (index: number): Record<string, string> => ({
  'x-forwarded-for': `198.51.100.${index % 250}, 203.0.113.${(index * 7) % 250}`,
});

describe('one API node', () => {
  let app: AuthApp;
  let clock: ManualClock;

  beforeAll(async () => {
    app = await startAuthApp();
    clock = burstClock(app);
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });
  // Every test starts with quiet counters: runs end after 15 quiet minutes, locks in a row after 24 hours.
  afterEach(() => {
    clock.advance(dayAndMore);
  });

  it('checks at most 10 passwords of 200 concurrent guesses for one account, each with its own XSRF cookie and a forged X-Forwarded-For, then refuses the right password while locked', async () => {
    await app.createUser({ email: 'target@example.com', username: 'target', password });
    const before = app.identity.hasher.verifications;

    const answers = await Promise.all(
      Array.from({ length: 200 }, (_unused, index) =>
        guess(app, 'target', `guess number ${index}`, forgedAddress(index)),
      ),
    );

    const checked = app.identity.hasher.verifications - before;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(10);
    expect(Object.keys(statuses(answers)).sort()).toEqual(['401', '429']);
    expect(statuses(answers)[401]).toBe(checked);
    const locked = await guess(app, 'target@example.com', password, forgedAddress(999));
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(app.identity.hasher.verifications - before).toBe(checked);
  }, 120_000);

  it('checks at most 100 passwords of 200 concurrent guesses from one address, each for another name', async () => {
    const before = app.identity.hasher.verifications;

    const answers = await Promise.all(
      Array.from({ length: 200 }, (_unused, index) =>
        guess(app, `nobody-${index}@example.com`, 'a guess at a password'),
      ),
    );

    const checked = app.identity.hasher.verifications - before;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(100);
    expect(statuses(answers)[401]).toBe(checked);
    expect(statuses(answers)[429]).toBe(200 - checked);
  }, 120_000);
});

describe('two API nodes sharing one DATA_DIR', () => {
  let dataDir: string;
  let nodeA: AuthApp;
  let nodeB: AuthApp;
  let clock: ManualClock;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-lockout-'));
    const shared = { DATA_DIR: dataDir, SESSION_SECRET: 's'.repeat(48) };
    nodeA = await startAuthApp({ ...shared, PROJECTIONS: 'inline' });
    nodeB = await startAuthApp({ ...shared, PROJECTIONS: 'off' });
    // Two nodes, one time, as NTP keeps real ones.
    clock = burstClock(nodeA, nodeB);
  }, 60_000);
  afterAll(async () => {
    for (const node of [nodeB, nodeA]) await node?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  afterEach(() => {
    clock.advance(dayAndMore);
  });

  const verifications = () => nodeA.identity.hasher.verifications + nodeB.identity.hasher.verifications;

  it('checks at most 10 passwords in all of 200 concurrent guesses for one account split between the nodes', async () => {
    await nodeA.createUser({ email: 'shared@example.com', username: 'shared', password });
    const before = verifications();

    const answers = await Promise.all(
      Array.from({ length: 200 }, (_unused, index) =>
        guess(index % 2 === 0 ? nodeA : nodeB, 'shared', `guess number ${index}`, forgedAddress(index)),
      ),
    );

    const checked = verifications() - before;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(10);
    expect(statuses(answers)[401]).toBe(checked);
    expect((await guess(nodeB, 'shared', password)).status).toBe(429);
    expect((await guess(nodeA, 'shared', password)).status).toBe(429);
  }, 120_000);

  it('checks at most 100 passwords in all of 200 concurrent guesses from one address split between the nodes', async () => {
    const before = verifications();

    const answers = await Promise.all(
      Array.from({ length: 200 }, (_unused, index) =>
        guess(index % 2 === 0 ? nodeA : nodeB, `stranger-${index}`, 'a guess at a password'),
      ),
    );

    const checked = verifications() - before;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(100);
    expect(statuses(answers)[429]).toBe(200 - checked);
  }, 120_000);
});
