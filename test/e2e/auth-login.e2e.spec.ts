// POST /login, /logout, GET /session over real HTTP with real argon2 (docs/api.md, Sign-in).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { userStream } from '#domain';
import { signInAttemptsStream } from '#identity';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Answer, Browser } from '../support/browser.js';

const password = 'correct horse battery staple';
let app: AuthApp;
let adaId: string;
let organizationId: string;

beforeAll(async () => {
  app = await startAuthApp();
  adaId = await app.createUser({ email: 'ada@example.com', username: 'ada', password });
  organizationId = await app.createOrganization('Analytical Engines', { userId: adaId, email: 'ada@example.com' });
});
afterAll(async () => {
  await app.close();
});

/** A browser that has loaded the login page (so it holds its XSRF token), then signs in. */
async function signIn(
  username: string,
  secret: string,
  browser = app.browser(),
): Promise<{ browser: Browser; answer: Answer }> {
  await browser.open('/login');
  return { browser, answer: await browser.post('/login', { username, password: secret }) };
}

const withoutCorrelation = ({ correlationId: _correlationId, ...rest }: Record<string, unknown>) => rest;

describe('POST /login', () => {
  it('signs in with the e-mail address in any case or the username: 204 and a session cookie', async () => {
    for (const username of ['ada@example.com', 'ADA@Example.COM', 'ada', 'ADA']) {
      const { browser, answer } = await signIn(username, password);
      expect(answer.status).toBe(204);
      expect(browser.cookie('chorus_session')).toBeDefined();
      const session = await browser.get('/session');
      expect(session.status).toBe(200);
    }
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/, not Secure over http, and a new XSRF token for the session', async () => {
    const { answer } = await signIn('ada', password);
    const session = answer.setCookies.find((cookie) => cookie.name === 'chorus_session');
    expect(session?.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/' });
    expect(session?.attributes.secure).toBeUndefined();
    expect(session?.attributes['max-age']).toBeUndefined();
    const xsrf = answer.setCookies.find((cookie) => cookie.name === 'XSRF-TOKEN');
    expect(xsrf?.attributes).toMatchObject({ samesite: 'Lax', path: '/' });
    expect(xsrf?.attributes.httponly).toBeUndefined();
  });

  it('gives a new session id at every sign-in, and ends the session the browser had', async () => {
    const { browser } = await signIn('ada', password);
    const first = browser.cookie('chorus_session');
    await browser.open('/');
    const again = await browser.post('/login', { username: 'ada', password });
    expect(again.status).toBe(204);
    const second = browser.cookie('chorus_session');
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    const stale = app.browser();
    stale.cookies.set('chorus_session', first ?? '');
    expect((await stale.get('/session')).status).toBe(401);
  });

  it('ignores a session id planted before sign-in (no fixation)', async () => {
    const browser = app.browser();
    browser.cookies.set('chorus_session', 'attacker-chosen.value');
    await browser.open('/login');
    await browser.post('/login', { username: 'ada', password });
    expect(browser.cookie('chorus_session')).not.toBe('attacker-chosen.value');
    expect((await browser.get('/session')).status).toBe(200);
  });

  it('answers every failure 401 INVALID_CREDENTIALS with the same body', async () => {
    await app.createUser({ email: 'grace@example.com' });
    const failures = [
      await signIn('ada', 'not the password at all'),
      await signIn('nobody@example.com', password),
      await signIn('nobody', password),
      await signIn('grace@example.com', password),
      await signIn('', ''),
    ].map(({ answer }) => answer);
    for (const answer of failures) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(answer.setCookies.map((cookie) => cookie.name)).not.toContain('chorus_session');
    }
    const bodies = failures.map((answer) => withoutCorrelation(answer.body as Record<string, unknown>));
    expect(bodies[0]).toMatchObject({
      status: 401,
      code: 'INVALID_CREDENTIALS',
      detail: 'Incorrect username or password.',
    });
    for (const body of bodies) expect(body).toEqual(bodies[0]);
  });

  it('refuses a malformed body with 400 VALIDATION_FAILED', async () => {
    const browser = app.browser();
    await browser.open('/login');
    for (const body of [
      {},
      { username: 'ada' },
      { username: 1, password },
      { username: 'ada', password, extra: true },
    ]) {
      const answer = await browser.post('/login', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('slows and then refuses repeated failures with 429 RATE_LIMITED, and lets the owner in after the lock', async () => {
    const victim = await app.createUser({ email: 'locked@example.com', password });
    const sleepsBefore = app.clock.sleeps.length;
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await signIn('locked@example.com', `guess ${attempt}`, app.browser())).answer.status).toBe(401);
    }
    expect(app.clock.sleeps.slice(sleepsBefore)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
    const refused = (await signIn('locked@example.com', password)).answer;
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(refused.headers.get('retry-after'))).toBe(900);

    app.clock.advance(15 * 60_000);
    expect((await signIn('locked@example.com', password)).answer.status).toBe(204);
    const attempts = await app.store.readStream(signInAttemptsStream({ kind: 'account', id: victim }));
    const failures = Array.from({ length: 10 }, () => ['SignInAttemptReserved', 'SignInAttemptFailed']).flat();
    expect(attempts.found && attempts.events.map((event) => event.type)).toEqual([
      ...failures,
      'SignInAttemptReserved',
      'SignInAttemptSucceeded',
    ]);
    const history = await app.store.readStream(userStream(victim));
    expect(history.found && history.events.map((event) => event.type)).toEqual([
      'UserRegistered',
      'PasswordSet',
      'SignedIn',
    ]);
  });
});

describe('GET /session and POST /logout', () => {
  it('answers the user and their organizations; 401 when not signed in', async () => {
    const { browser } = await signIn('ada', password);
    const session = await browser.get('/session');
    expect(session.body).toEqual({
      user: { id: adaId, email: 'ada@example.com', username: 'ada' },
      organizations: [{ id: organizationId, name: 'Analytical Engines', role: 'owner' }],
    });
    expect(session.headers.get('cache-control')).toBe('no-store');
    const anonymous = await app.browser().get('/session');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('ends the session: 204, the cookie is cleared and the old value no longer works', async () => {
    const { browser } = await signIn('ada', password);
    const cookie = browser.cookie('chorus_session') ?? '';
    const logout = await browser.post('/logout');
    expect(logout.status).toBe(204);
    expect(logout.setCookies.find((set) => set.name === 'chorus_session')?.attributes.expires).toBeDefined();
    expect(browser.cookie('chorus_session')).toBeUndefined();
    const replay = app.browser();
    replay.cookies.set('chorus_session', cookie);
    expect((await replay.get('/session')).status).toBe(401);
  });

  it('lets a signed-in user list their sessions and end another one', async () => {
    const laptop = (await signIn('ada', password)).browser;
    const phone = (await signIn('ada', password)).browser;
    const listed = await laptop.get('/sessions');
    expect(listed.status).toBe(200);
    const others = (listed.body as { sessions: { id: string; current: boolean }[] }).sessions.filter(
      (session) => !session.current,
    );
    expect(others.length).toBeGreaterThan(0);
    for (const other of others) expect((await laptop.delete(`/sessions/${other.id}`)).status).toBe(204);
    expect((await phone.get('/session')).status).toBe(401);
    expect((await laptop.get('/session')).status).toBe(200);
  });

  it("ends no one else's session, whatever its id: 404, as for an id that was never a session", async () => {
    const laptop = (await signIn('ada', password)).browser;
    const adaSessions = ((await laptop.get('/sessions')).body as { sessions: { id: string }[] }).sessions.map(
      (session) => session.id,
    );
    await app.createUser({ email: 'mallory@example.com', password });
    const mallory = (await signIn('mallory@example.com', password)).browser;
    for (const id of adaSessions) expect((await mallory.delete(`/sessions/${id}`)).body).toMatchObject({ status: 404 });
    const neverASession = 'f'.repeat(64);
    expect((await mallory.delete(`/sessions/${neverASession}`)).body).toMatchObject({ status: 404 });
    expect((await laptop.get('/session')).status).toBe(200);
    expect(
      ((await laptop.get('/sessions')).body as { sessions: { id: string }[] }).sessions.map((session) => session.id),
    ).toEqual(adaSessions);
  });
});
