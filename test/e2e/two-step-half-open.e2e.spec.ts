// A half-open session (the password was right, the second step is not passed) is signed out everywhere but
// the second step's own calls: every route the router has answers it exactly as it answers a browser with no
// session, and every console page sends it to the second step. Walks the router's own list, so a route
// added later is covered without being named here.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Answer, Browser } from '../support/browser.js';
import { routerRoutes } from '../support/router-routes.js';

const password = 'correct horse battery staple';
let app: AuthApp;
let owner: { userId: string; email: string };
let organizationId: string;

beforeAll(async () => {
  app = await startAuthApp({ LOG_LEVEL: 'silent' });
  const email = `half-${randomUUID().slice(0, 8)}@two-step.example`;
  owner = { userId: await app.createUser({ email, password }), email };
  organizationId = await app.createOrganization('Half Open', owner);
  const signedIn = await app.signedIn(email, password);
  const started = await signedIn.post('/account/two-step/authenticator-app');
  const code = await generate({ secret: started.body.secret, epoch: Math.floor(app.clock.now().getTime() / 1000) });
  expect(
    (
      await signedIn.request('PUT', '/account/two-step/authenticator-app', {
        json: { setup: started.body.setup, code, password },
      })
    ).status,
  ).toBe(200);
}, 60_000);

afterAll(async () => {
  await app.close();
});

/** The second step's own calls, and those that end or replace the session (tried on their own below). */
const allowed = (path: string) => path.startsWith('/session/second-step') || path === '/login' || path === '/logout';

const concretePath = (path: string) =>
  path
    .replace(':id', organizationId)
    .replace(':userId', owner.userId)
    .replace(/:(\w+)/g, 'x');

async function call(
  browser: Browser,
  method: string,
  path: string,
): Promise<Pick<Answer, 'status'> & { code?: string; location: string | null }> {
  const answer = await browser.request(method, path, ['POST', 'PUT', 'PATCH'].includes(method) ? { json: {} } : {});
  return { status: answer.status, code: answer.body?.code, location: answer.location };
}

describe('a half-open session', () => {
  it('is answered as signed out by every route of the router', async () => {
    const half = app.browser();
    await half.open('/login');
    expect((await half.post('/login', { username: owner.email, password })).status).toBe(204);
    const signedOut = app.browser();
    await signedOut.open('/login');

    const routes = [...routerRoutes(app).keys()]
      .map((key) => key.split(' ') as [string, string])
      .filter(([, path]) => !allowed(path));
    expect(routes.length).toBeGreaterThan(60);
    const differences: string[] = [];
    for (const [method, routePath] of routes) {
      const path = concretePath(routePath);
      const [asHalf, asNobody] = [await call(half, method, path), await call(signedOut, method, path)];
      if (JSON.stringify(asHalf) !== JSON.stringify(asNobody))
        differences.push(`${method} ${routePath}: ${JSON.stringify(asHalf)} against ${JSON.stringify(asNobody)}`);
    }
    expect(differences).toEqual([]);
    // Still half open after all that, and still refused.
    expect((await half.get('/session/second-step')).status).toBe(200);
    expect((await half.get(`/organizations/${organizationId}`)).status).toBe(401);
  });

  it('is sent to the second step by every console page, and ends with POST /logout', async () => {
    const half = app.browser();
    await half.open('/login');
    await half.post('/login', { username: owner.email, password });
    for (const page of [
      '/',
      '/app',
      `/app/orgs/${organizationId}`,
      `/app/orgs/${organizationId}/members`,
      '/app/account',
    ]) {
      const answer = await half.open(page);
      expect([answer.status, answer.location]).toEqual([302, `/login/verify?redirect=${encodeURIComponent(page)}`]);
    }
    expect((await half.open('/login/verify?redirect=%2Fapp')).status).toBe(200);
    expect((await half.post('/logout')).status).toBe(204);
    expect((await half.get('/session/second-step')).status).toBe(401);
    expect((await half.open('/app')).location).toBe('/login?redirect=%2Fapp');
  });
});
