// GET /metrics (docs/service.md, Operations): Prometheus text scraped after real traffic, whose
// series move with it; route patterns, never raw paths; and who may read it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';

/** The value of one series in a Prometheus text exposition (0 when absent), labels in any order. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null || match[1] !== name) continue;
    const present = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((label) => [label[1], label[2]]),
    );
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) total += Number(match[3]);
  }
  return total;
}

const password = 'correct horse battery staple';
let app: AuthApp;
let api: HttpClient;

beforeAll(async () => {
  app = await startAuthApp();
  api = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write']) });
  await app.createUser({ email: 'ada@example.com', username: 'ada', password });
});
afterAll(async () => {
  await app.close();
});

async function scrape(): Promise<string> {
  const answer = await httpClient(app.baseUrl).get('/metrics');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return answer.text;
}

describe('GET /metrics after real traffic', () => {
  it('times HTTP answers by route pattern and status, never by raw path', async () => {
    const before = await scrape();
    const created = await api.post('/organizations', { name: 'Metered' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    for (let index = 0; index < 3; index += 1) expect((await api.get(`/organizations/${id}`)).status).toBe(200);
    expect((await api.get('/organizations/no-such-organization')).status).toBe(404);
    expect((await api.get('/no/such/route/at/all')).status).toBe(404);

    const after = await scrape();
    const route = { method: 'GET', route: '/organizations/:id' };
    const count = (text: string, labels: Record<string, string>) =>
      sample(text, 'chorus_http_request_duration_seconds_count', labels);
    expect(count(after, { ...route, status: '200' }) - count(before, { ...route, status: '200' })).toBe(3);
    expect(count(after, { ...route, status: '404' }) - count(before, { ...route, status: '404' })).toBe(1);
    expect(
      count(after, { method: 'POST', route: '/organizations', status: '201' }) -
        count(before, { method: 'POST', route: '/organizations', status: '201' }),
    ).toBe(1);
    // The unknown path is counted under the pattern that answered it (the SPA's catch-all), not under its own.
    expect(count(after, { status: '404' }) - count(before, { status: '404' })).toBe(2);
    expect(sample(after, 'chorus_http_request_duration_seconds_bucket', { ...route, status: '200', le: '+Inf' })).toBe(
      count(after, { ...route, status: '200' }),
    );
    expect(after).not.toContain(id);
    expect(after).not.toContain('no-such-organization');
    expect(after).not.toContain('/no/such/route');
  });

  it('counts commands by type and outcome, and times the appends they make', async () => {
    const before = await scrape();
    const id = (await api.post('/organizations', { name: 'Counted' })).body.id as string;
    expect((await api.post(`/organizations/${id}/plan`, { line: 'classic', plan: 'essential' })).status).toBe(200);
    expect(
      (await api.post(`/organizations/${id}/sites`, { name: 'Blog', hostname: 'blog.counted.example' })).status,
    ).toBe(201);
    // A site it does not have: a refusal of the domain, which appends nothing.
    const refused = await api.delete(`/organizations/${id}/sites/no-such-site`);
    const after = await scrape();

    const commands = (text: string, labels: Record<string, string>) => sample(text, 'chorus_commands_total', labels);
    const moved = (labels: Record<string, string>) => commands(after, labels) - commands(before, labels);
    expect(moved({ command: 'CreateOrganization', outcome: 'accepted' })).toBe(1);
    expect(moved({ command: 'AssignPlan', outcome: 'accepted' })).toBe(1);
    expect(moved({ command: 'AddSite', outcome: 'accepted' })).toBe(1);
    expect(refused.status).toBe(404);
    expect(moved({ command: 'RemoveSite', outcome: 'refused', code: 'NOT_FOUND' })).toBe(1);
    const appends = (text: string) =>
      sample(text, 'chorus_event_store_append_duration_seconds_count', { store: 'sqlite', outcome: 'ok' });
    expect(appends(after) - appends(before)).toBeGreaterThanOrEqual(3);
    expect(
      sample(after, 'chorus_event_store_append_duration_seconds_sum', { store: 'sqlite', outcome: 'ok' }),
    ).toBeGreaterThan(0);
  });

  it('counts sign-ins by outcome', async () => {
    const before = await scrape();
    const browser = app.browser();
    await browser.open('/login');
    expect((await browser.post('/login', { username: 'ada', password: 'not the password' })).status).toBe(401);
    expect((await browser.post('/login', { username: 'ada', password })).status).toBe(204);
    // A callback from Google without the state this browser was given: refused, to the seed's page.
    const callback = await fetch(`${app.baseUrl}/auth/google/callback?code=forged&state=forged`, {
      redirect: 'manual',
    });
    expect(callback.status).toBe(302);
    expect(callback.headers.get('location')).toBe('/login?error=google');
    const after = await scrape();
    const logins = (text: string, method: string, outcome: string) =>
      sample(text, 'chorus_logins_total', { method, outcome });
    expect(logins(after, 'password', 'invalid_credentials') - logins(before, 'password', 'invalid_credentials')).toBe(
      1,
    );
    expect(logins(after, 'password', 'success') - logins(before, 'password', 'success')).toBe(1);
    expect(logins(after, 'google', 'google_refused') - logins(before, 'google', 'google_refused')).toBe(1);
  });

  it('reports each projection caught up (lag 0) and the service ready, as /health does', async () => {
    const text = await scrape();
    expect(sample(text, 'chorus_ready')).toBe(1);
    for (const projection of ['organizations', 'correlations']) {
      expect(sample(text, 'chorus_projection_lag_events', { projection })).toBe(0);
      expect(sample(text, 'chorus_projection_checkpoint_position', { projection })).toBeGreaterThan(0);
    }
    expect(text).toContain('chorus_process_resident_memory_bytes');
  });
});

describe('who may read /metrics', () => {
  it('without METRICS_TOKEN, refuses a request relayed by a proxy on this host (403)', async () => {
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const answer = await httpClient(app.baseUrl).get('/metrics', {
        headers: { [header]: header === 'forwarded' ? 'for=203.0.113.9' : '203.0.113.9' },
      });
      expect(answer.status).toBe(403);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({ code: 'FORBIDDEN' });
      expect(answer.text).not.toContain('chorus_');
    }
  });

  it('without METRICS_TOKEN, refuses a client that reaches the server from another address than loopback', async () => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((address) => address !== undefined && !address.internal && address.family === 'IPv4');
    // A host with no network interface but loopback cannot be reached from elsewhere: nothing to attack.
    if (external === undefined) return;
    const everywhere = await startApp();
    try {
      // The same app, listening on every interface: its peer is then the host's own external address.
      const server = everywhere.app.getHttpServer();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
      const { port } = server.address() as AddressInfo;
      const answer = await httpClient(`http://${external.address}:${port}`).get('/metrics');
      expect(answer.status).toBe(403);
      expect((await httpClient(`http://127.0.0.1:${port}`).get('/metrics')).status).toBe(200);
    } finally {
      await everywhere.close();
    }
  });

  describe('with METRICS_TOKEN', () => {
    const token = 'a-metrics-token-of-some-length';
    let guarded: RunningApp;
    beforeAll(async () => {
      guarded = await startApp({ METRICS_TOKEN: token });
    });
    afterAll(async () => {
      await guarded.close();
    });

    it('refuses a scrape without the token or with another one, even from loopback (401)', async () => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer a-metrics-token-of-some-lengtH' },
        { authorization: `Basic ${token}` },
        { authorization: `Bearer ${token}x` },
      ];
      for (const headers of attempts) {
        const answer = await httpClient(guarded.baseUrl).get('/metrics', { headers });
        expect(answer.status).toBe(401);
        expect(answer.body).toMatchObject({ code: 'UNAUTHENTICATED' });
        expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
    });

    it('answers the token from anywhere, relayed or not', async () => {
      const answer = await httpClient(guarded.baseUrl).get('/metrics', {
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '203.0.113.9' },
      });
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('chorus_http_request_duration_seconds');
    });
  });
});
