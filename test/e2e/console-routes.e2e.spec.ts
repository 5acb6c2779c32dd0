// The console's routes as the server answers page loads (docs/console.md, Routes): `/` with a live session
// goes to /app; a signed-out /app/... goes to the login, which comes back; a user in no organization
// gets the seed's 'account' message; deep links are the SPA.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';

const password = 'correct horse battery staple';
let app: AuthApp;
let organizationId: string;

const signedIn = (username: string): Promise<Browser> => app.signedIn(username, password);

beforeAll(async () => {
  app = await startAuthApp({ LOG_LEVEL: 'silent' });
  const owner = await app.createUser({ email: 'owner@routes.example', username: 'owner', password });
  await app.createUser({ email: 'loner@routes.example', username: 'loner', password });
  organizationId = await app.createOrganization('Routes', { userId: owner, email: 'owner@routes.example' });
});

afterAll(async () => {
  await app.close();
});

describe('GET /', () => {
  it('is the login screen for a signed-out browser, as the seed has it', async () => {
    const answer = await app.browser().open('/');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('<div id="root">');
  });

  it('sends a signed-in browser to the console, so the login form lands there', async () => {
    const answer = await (await signedIn('owner')).open('/');
    expect({ status: answer.status, location: answer.location }).toEqual({ status: 302, location: '/app' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('keeps /login, /forgot and /reset/:token reachable when signed in', async () => {
    const browser = await signedIn('owner');
    for (const path of ['/login', '/forgot', '/reset/some-token']) expect((await browser.open(path)).status).toBe(200);
  });
});

describe('console pages', () => {
  it.each(['/app', `/app/orgs/routes-org/members?tab=1`, '/app/account'])(
    'send a signed-out browser to /login?redirect=%s',
    async (path) => {
      const answer = await app.browser().open(path);
      expect({ status: answer.status, location: answer.location }).toEqual({
        status: 302,
        location: `/login?redirect=${encodeURIComponent(path)}`,
      });
    },
  );

  it('are the SPA for a signed-in member, on a full page load of any deep link', async () => {
    const browser = await signedIn('owner');
    for (const page of ['', '/members', '/sites', '/domains', '/history']) {
      const answer = await browser.open(`/app/orgs/${organizationId}${page}`);
      expect({ page, status: answer.status }).toEqual({ page, status: 200 });
      expect(answer.text).toContain('<div id="root">');
    }
    expect((await browser.open('/app')).status).toBe(200);
  });

  it('name their lazy chunk, its styles and their first reads in the HTML, so that they load in parallel; the login page names none', async () => {
    const browser = await signedIn('owner');
    const preloads = (html: string): string[] =>
      [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]*href="([^"]+)"/g)].map(
        (match) => match[1] as string,
      );
    // As the console reads it: without its member list.
    const organization = `/organizations/${encodeURIComponent(organizationId)}?members=none`;

    const history = preloads((await browser.open(`/app/orgs/${organizationId}/history`)).text);
    expect(history).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/assets\/console-app-.+\.js$/),
        expect.stringMatching(/^\/assets\/console-app-.+\.css$/),
        '/session',
        organization,
      ]),
    );
    // /app shows the only organization's overview: the same first reads.
    expect(preloads((await browser.open('/app')).text)).toEqual(expect.arrayContaining(['/session', organization]));
    const account = preloads((await browser.open('/app/account')).text);
    expect(account).toContain('/session');
    expect(account.filter((url) => url.startsWith('/organizations/'))).toEqual([]);
    expect(
      preloads((await browser.open('/login')).text).filter((url) => url.includes('console-app') || url === '/session'),
    ).toEqual([]);
    // Each preloaded chunk is served.
    for (const url of history.filter((link) => link.startsWith('/assets/')))
      expect({ url, status: (await browser.open(url)).status }).toEqual({ url, status: 200 });
  });

  it("send a user who belongs to no organization to the seed's message (/login?error=account), but not from their account page", async () => {
    const browser = await signedIn('loner');
    for (const path of ['/app', '/app/', `/app/orgs/${organizationId}`]) {
      const answer = await browser.open(path);
      expect({ path, status: answer.status, location: answer.location }).toEqual({
        path,
        status: 302,
        location: '/login?error=account',
      });
    }
    expect((await browser.open('/app/account')).status).toBe(200);
  });

  it('serve the invitation page to anyone, logging it without its token', async () => {
    const answer = await app.browser().open('/invite/a-secret-invitation-token');
    expect(answer.status).toBe(200);
    expect(JSON.stringify(app.logs)).not.toContain('a-secret-invitation-token');
  });
});
