// Concurrency must not leak out of sign-in. POST /login answers only 2xx, 401 or 429 (a 409
// for real accounts alone told them apart from unknown names), and POST /logout is idempotent: 204.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { userStream } from '#domain';
import type { ManualClock } from '#identity';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { burstClock, signInAttempt, statusCounts as statuses } from '../support/sign-in-attempts.js';

const password = 'correct horse battery staple';
let app: AuthApp;
let clock: ManualClock;
let userId: string;

beforeAll(async () => {
  app = await startAuthApp();
  clock = burstClock(app);
  userId = await app.createUser({ email: 'ada@example.com', username: 'ada', password });
}, 60_000);
afterAll(async () => {
  await app.close();
});
// Quiet counters for every test: runs end after 15 quiet minutes, locks in a row after 24 hours.
afterEach(() => {
  clock.advance(25 * 3_600_000);
});

const attempt = (username: string, secret: string) => signInAttempt(app, username, secret);

describe('POST /login under concurrency', () => {
  it('answers 30 parallel wrong passwords for a real account only 401 or 429, exactly as for a name that is nobody’s', async () => {
    const real = await Promise.all(Array.from({ length: 30 }, (_unused, index) => attempt('ada', `wrong ${index}`)));
    clock.advance(25 * 3_600_000);
    const unknown = await Promise.all(
      Array.from({ length: 30 }, (_unused, index) => attempt('nobody', `wrong ${index}`)),
    );

    expect(Object.keys(statuses(real)).sort()).toEqual(['401', '429']);
    expect(statuses(real)).toEqual(statuses(unknown));
    for (const answer of [...real, ...unknown]) {
      expect(answer.body).toMatchObject({ code: answer.status === 401 ? 'INVALID_CREDENTIALS' : 'RATE_LIMITED' });
    }
  }, 60_000);

  it('answers 30 parallel sign-ins with the right password only 204 or 429, and the account is not locked afterwards', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => attempt('ada', password)));

    expect(Object.keys(statuses(answers)).filter((status) => status !== '204' && status !== '429')).toEqual([]);
    expect(statuses(answers)[204]).toBeGreaterThan(0);
    expect((await attempt('ada', password)).status).toBe(204);
  }, 60_000);
});

describe('POST /logout under concurrency', () => {
  async function signedIn(): Promise<Browser> {
    const browser = app.browser();
    await browser.open('/login');
    expect((await browser.post('/login', { username: 'ada', password })).status).toBe(204);
    return browser;
  }

  it('answers 29 concurrent sign-outs of one session all 204, and the session is over', async () => {
    const browser = await signedIn();

    const answers = await Promise.all(Array.from({ length: 29 }, () => browser.request('POST', '/logout')));

    expect(statuses(answers)).toEqual({ 204: 29 });
    const replay = app.browser();
    replay.cookies.set('chorus_session', browser.cookie('chorus_session') ?? '');
    expect((await replay.get('/session')).status).toBe(401);
  }, 60_000);

  it('answers 29 concurrent sign-outs of 29 sessions of one user all 204, and records each on the user’s stream', async () => {
    const browsers = [];
    for (let index = 0; index < 29; index += 1) browsers.push(await signedIn());
    const signedOut = async () => {
      const history = await app.store.readStream(userStream(userId));
      return history.found ? history.events.filter((event) => event.type === 'SignedOut').length : 0;
    };
    const before = { listed: (await app.identity.sessions.listForUser(userId)).length, signedOut: await signedOut() };

    const answers = await Promise.all(browsers.map((browser) => browser.request('POST', '/logout')));

    expect(statuses(answers)).toEqual({ 204: 29 });
    expect(before.listed - (await app.identity.sessions.listForUser(userId)).length).toBe(29);
    expect((await signedOut()) - before.signedOut).toBe(29);
  }, 60_000);

  it('answers a sign-out of a session that has already ended 204, and one with no session at all', async () => {
    const browser = await signedIn();
    const cookies = new Map(browser.cookies);
    expect((await browser.post('/logout')).status).toBe(204);

    const again = app.browser();
    for (const [name, value] of cookies) again.cookies.set(name, value);
    expect((await again.post('/logout')).status).toBe(204);
    const anonymous = app.browser();
    await anonymous.open('/login');
    expect((await anonymous.post('/logout')).status).toBe(204);
  });
});
