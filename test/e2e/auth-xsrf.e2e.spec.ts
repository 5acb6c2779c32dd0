// The signed double-submit XSRF check (docs/api.md, Sign-in): state-changing calls with a session cookie,
// and the sign-in forms themselves (login CSRF), must echo XSRF-TOKEN signed for that browser.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { createApiKey } from '../support/api-keys.js';

const password = 'correct horse battery staple';
let app: AuthApp;

beforeAll(async () => {
  app = await startAuthApp({ BILLING_WEBHOOK_SECRET: 'a billing webhook secret' });
  const userId = await app.createUser({ email: 'ada@example.com', password });
  await app.createOrganization('Analytical Engines', { userId, email: 'ada@example.com' });
});
afterAll(async () => {
  await app.close();
});

async function signedIn(): Promise<Browser> {
  const browser = app.browser();
  await browser.open('/login');
  expect((await browser.post('/login', { username: 'ada@example.com', password })).status).toBe(204);
  return browser;
}

function expectXsrfRefusal(answer: { status: number; body: unknown }): void {
  expect(answer.status).toBe(403);
  expect(answer.body).toMatchObject({ status: 403, code: 'XSRF_INVALID' });
}

describe('the XSRF check', () => {
  it('refuses a state-changing call with the session cookie but no X-XSRF-TOKEN, and changes nothing', async () => {
    const browser = await signedIn();
    expectXsrfRefusal(await browser.post('/logout', undefined, { xsrf: false }));
    expect((await browser.get('/session')).status).toBe(200);
  });

  it('refuses a wrong token, and a header that differs from the cookie', async () => {
    const browser = await signedIn();
    expectXsrfRefusal(await browser.post('/logout', undefined, { xsrf: 'made-up.token' }));
    const cookie = browser.cookie('XSRF-TOKEN') ?? '';
    expectXsrfRefusal(await browser.post('/logout', undefined, { xsrf: `${cookie.slice(0, -2)}xx` }));
  });

  it("refuses another session's valid token, even placed in both cookie and header", async () => {
    const victim = await signedIn();
    const attacker = await signedIn();
    const stolen = attacker.cookie('XSRF-TOKEN') ?? '';
    victim.cookies.set('XSRF-TOKEN', stolen);
    expectXsrfRefusal(await victim.post('/logout'));
    expectXsrfRefusal(
      await victim.delete('/sessions/0000000000000000000000000000000000000000000000000000000000000000'),
    );
  });

  it('accepts the token this page set for this session', async () => {
    const browser = await signedIn();
    await browser.open('/');
    expect((await browser.post('/logout')).status).toBe(204);
  });

  it('protects sign-in itself: no token, or a token of another browser, is refused (login CSRF)', async () => {
    const noPage = app.browser();
    expectXsrfRefusal(await noPage.post('/login', { username: 'ada@example.com', password }));
    expect(noPage.cookie('chorus_session')).toBeUndefined();

    const attacker = app.browser();
    await attacker.open('/login');
    const victim = app.browser();
    await victim.open('/login');
    victim.cookies.set('XSRF-TOKEN', attacker.cookie('XSRF-TOKEN') ?? '');
    expectXsrfRefusal(await victim.post('/login', { username: 'ada@example.com', password }));
    expectXsrfRefusal(await app.browser().post('/LOGIN/', { username: 'ada@example.com', password }));
    expectXsrfRefusal(await app.browser().post('/forgot', { email: 'ada@example.com' }));
    expectXsrfRefusal(await app.browser().post('/reset', { token: 'x', password: 'a new passphrase' }));
  });

  it('exempts the billing webhook (signed), and asks nothing of API-key calls that carry no session cookie', async () => {
    const browser = await signedIn();
    const billing = await browser.post('/billing/events', { id: 'evt-1' }, { xsrf: false });
    expect(billing.status).not.toBe(403);
    expect(billing.body).toMatchObject({ code: 'INVALID_SIGNATURE' });

    const key = await createApiKey(app.app, ['organizations:write']);
    const script = app.browser();
    const created = await script.post(
      '/organizations',
      { name: 'Made by a key' },
      { xsrf: false, headers: { authorization: `Bearer ${key}` } },
    );
    expect(created.status).toBe(201);
  });

  it.each([
    ['a junk bearer token', 'Bearer junk'],
    ['a real API key', 'real key'],
    ['another scheme', 'Basic YWRhOmFkYQ=='],
  ])('checks a request with the session cookie whatever Authorization it adds (%s)', async (_, authorization) => {
    const browser = await signedIn();
    const header =
      authorization === 'real key' ? `Bearer ${await createApiKey(app.app, ['organizations:write'])}` : authorization;
    const other = await signedIn();
    const otherSession = ((await other.get('/sessions')).body.sessions as { id: string; current: boolean }[]).find(
      (session) => session.current,
    )?.id;
    expect(otherSession).toMatch(/^[0-9a-f]{64}$/);
    // The same user's other browser: a session this one may revoke, with its token.

    expectXsrfRefusal(await browser.post('/logout', undefined, { xsrf: false, headers: { authorization: header } }));
    expectXsrfRefusal(
      await browser.delete(`/sessions/${otherSession}`, { xsrf: false, headers: { authorization: header } }),
    );
    // Neither session was touched.
    expect((await browser.get('/session')).status).toBe(200);
    expect((await other.get('/session')).status).toBe(200);
  });

  it('never asks safe methods for a token', async () => {
    const browser = await signedIn();
    expect((await browser.get('/session', { xsrf: false })).status).toBe(200);
  });
});
