// The console's Account page over HTTP (docs/console.md, Account): changing the password ends every other
// session; the sessions list names the browser; "Sign out everywhere else"; all behind the XSRF check.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';

const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const safari =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
let app: AuthApp;

beforeAll(async () => {
  app = await startAuthApp({ LOG_LEVEL: 'silent' });
});

afterAll(async () => {
  await app.close();
});

async function signedIn(username: string, password: string, userAgent = firefox): Promise<Browser> {
  const browser = app.browser();
  await browser.open('/login', { 'user-agent': userAgent });
  expect((await browser.post('/login', { username, password }, { headers: { 'user-agent': userAgent } })).status).toBe(
    204,
  );
  return browser;
}

describe('POST /account/password', () => {
  const password = 'granite orchard 3317';
  const newPassword = 'copper lantern 9054';

  beforeAll(async () => {
    await app.createUser({ email: 'ada@account.example', username: 'ada', password });
  });

  it('needs a session (401) and the XSRF token (403)', async () => {
    const anonymous = app.browser();
    await anonymous.open('/login');
    expect((await anonymous.post('/account/password', { currentPassword: password, newPassword })).status).toBe(401);

    const here = await signedIn('ada', password);
    const forged = await here.post('/account/password', { currentPassword: password, newPassword }, { xsrf: false });
    expect({ status: forged.status, code: forged.body.code }).toEqual({ status: 403, code: 'XSRF_INVALID' });
  });

  it('refuses a wrong current password (400 WRONG_PASSWORD) and a weak new one (400 VALIDATION_FAILED)', async () => {
    const here = await signedIn('ada', password);
    const wrong = await here.post('/account/password', { currentPassword: 'not it', newPassword });
    expect({ status: wrong.status, code: wrong.body.code, errors: wrong.body.errors }).toEqual({
      status: 400,
      code: 'WRONG_PASSWORD',
      errors: [{ pointer: '#/currentPassword', detail: 'The current password is not correct.' }],
    });
    const weak = await here.post('/account/password', { currentPassword: password, newPassword: 'short' });
    expect({ status: weak.status, code: weak.body.code, detail: weak.body.detail }).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      detail: 'The password must be at least 8 characters long.',
    });
  });

  it('changes it: this browser stays signed in, every other session ends, the old password no longer works', async () => {
    const elsewhere = await signedIn('ada', password, safari);
    const here = await signedIn('ada', password);

    expect((await here.post('/account/password', { currentPassword: password, newPassword })).status).toBe(204);

    expect((await here.get('/session')).status).toBe(200);
    expect((await elsewhere.get('/session')).status).toBe(401);
    const login = app.browser();
    await login.open('/login');
    expect((await login.post('/login', { username: 'ada', password })).status).toBe(401);
    expect((await login.post('/login', { username: 'ada', password: newPassword })).status).toBe(204);
  });
});

describe('the sessions list', () => {
  const password = 'velvet thunder 4821';

  beforeAll(async () => {
    await app.createUser({ email: 'lin@account.example', username: 'lin', password });
  });

  it("says each session's browser, and which one is this browser", async () => {
    await signedIn('lin', password, safari);
    app.clock.advance(60_000);
    const here = await signedIn('lin', password, firefox);

    const { body } = await here.get('/sessions');

    expect(body.sessions).toEqual([
      expect.objectContaining({ method: 'password', userAgent: firefox, current: true }),
      expect.objectContaining({ method: 'password', userAgent: safari, current: false }),
    ]);
  });

  it('DELETE /sessions signs out everywhere else, and needs the XSRF token', async () => {
    const others = [await signedIn('lin', password, safari), await signedIn('lin', password, safari)];
    const here = await signedIn('lin', password);

    expect((await here.delete('/sessions', { xsrf: false })).status).toBe(403);
    expect((await here.delete('/sessions')).status).toBe(204);

    for (const other of others) expect((await other.get('/session')).status).toBe(401);
    expect((await here.get('/sessions')).body.sessions).toEqual([expect.objectContaining({ current: true })]);
  });
});
