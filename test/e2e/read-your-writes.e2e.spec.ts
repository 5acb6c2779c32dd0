// A command's 2xx means the change is visible on this node (docs/service.md, Read your own writes):
// a read right after it, without ?minPosition, never answers the state before it. With PROJECTIONS=off and no
// projector running, the command still answers 2xx after the bound, and says `Chorus-Consistency: pending`.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { organizationStream } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const PAIRS = 200;

describe('a command answered on this node, then a read without minPosition', () => {
  let running: RunningApp;
  let api: HttpClient;

  beforeAll(async () => {
    running = await startApp();
    api = httpClient(running.baseUrl, {
      apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
    });
  });

  afterAll(async () => {
    await running.close();
  });

  /** What the read shows of the write: the revision the command answered, and the change itself. */
  type Pair = { write: () => Promise<HttpResponse>; shows: (organization: HttpResponse['body']) => boolean };

  const pairs = (id: string, round: number): Pair[] => [
    {
      write: () =>
        api.post(`/organizations/${id}/plan`, {
          line: 'classic',
          plan: round % 2 === 0 ? 'professional' : 'enterprise',
        }),
      shows: (organization) => organization.plan === (round % 2 === 0 ? 'professional' : 'enterprise'),
    },
    {
      write: () => api.post(`/organizations/${id}/add-ons`, { addOn: 'additionalUser' }),
      shows: (organization) => organization.addOns.additionalUser === round + 1,
    },
    {
      write: () => api.post(`/organizations/${id}/members`, { email: `member-${round}@example.com`, role: 'member' }),
      shows: (organization) =>
        organization.members.some((member: { email: string }) => member.email === `member-${round}@example.com`),
    },
    {
      write: () =>
        api.post(`/organizations/${id}/sites`, { name: `Site ${round}`, hostname: `site-${round}.example.com` }),
      shows: (organization) =>
        organization.sites.some((site: { hostname: string }) => site.hostname === `site-${round}.example.com`),
    },
  ];

  it(`never reads the state before its own write, ${PAIRS} pairs in a row (plan, add-on, member, site)`, async () => {
    const id = await createOrganization(api, {
      plan: { line: 'classic', plan: 'enterprise' },
      limits: { users: 1000, contentSections: 1000, override: true },
    });
    const stale: string[] = [];
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const { write, shows } = pairs(id, Math.floor(pair / 4))[pair % 4] as Pair;
      const written = await write();
      if (written.status >= 300) throw new Error(`pair ${pair}: ${written.status} ${written.text}`);
      expect(written.headers.get('chorus-consistency')).toBe('committed');
      const read = await api.get(`/organizations/${id}`);
      expect(read.status).toBe(200);
      if (read.body.revision !== written.body.revision || !shows(read.body)) {
        stale.push(`pair ${pair}: wrote revision ${written.body.revision}, read ${read.body.revision}`);
      }
    }
    expect(stale).toEqual([]);
  }, 120_000);

  it('says committed on every kind of command answer, also one that changes nothing', async () => {
    const created = await api.post('/organizations', { name: 'Every route' });
    const id = created.body.id as string;
    const plan = await api.post(`/organizations/${id}/plan`, { line: 'classic', plan: 'enterprise' });
    const member = await api.post(`/organizations/${id}/members`, { email: 'ann@example.com', role: 'member' });
    const answers = [
      created,
      plan,
      await api.post(`/organizations/${id}/plan`, { line: 'classic', plan: 'enterprise' }),
      await api.put(`/organizations/${id}/chorus`, { enabled: true }),
      await api.put(`/organizations/${id}/limits`, { users: 50 }),
      await api.post(`/organizations/${id}/add-ons`, { addOn: 'qualityAssurance' }),
      await api.post(`/organizations/${id}/quality-assurance/domains`, { domain: 'qa.example.com' }),
      await api.delete(`/organizations/${id}/quality-assurance/domains/qa.example.com`),
      await api.delete(`/organizations/${id}/add-ons/qualityAssurance`),
      member,
      await api.request('PATCH', `/organizations/${id}/members/${member.body.userId}`, { json: { role: 'admin' } }),
      await api.delete(`/organizations/${id}/members/${member.body.userId}`),
      await api.delete(`/organizations/${id}/sso`),
    ];
    expect(answers.map((answer) => [answer.status < 300, answer.headers.get('chorus-consistency')])).toEqual(
      answers.map(() => [true, 'committed']),
    );
    const read = await api.get(`/organizations/${id}`);
    expect(read.body.revision).toBe(answers.at(-1)?.body.revision);
    const refused = await api.post(`/organizations/${id}/members`, { email: 'not an address', role: 'member' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.headers.get('chorus-consistency')).toBeNull();
  });
  it('is documented on every command of the OpenAPI document, and on no read', async () => {
    const document = (await api.get('/docs/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
    };
    const withHeader = (path: string, method: string) =>
      Object.values(document.paths[path]?.[method]?.responses ?? {}).some((answer) => answer.headers !== undefined);
    const commands = [
      ['/organizations', 'post'],
      ['/organizations/{id}/plan', 'post'],
      ['/organizations/{id}/add-ons', 'post'],
      ['/organizations/{id}/add-ons/{addOn}', 'delete'],
      ['/organizations/{id}/limits', 'put'],
      ['/organizations/{id}/members', 'post'],
      ['/organizations/{id}/members/{userId}', 'delete'],
      ['/organizations/{id}/sites', 'post'],
      ['/organizations/{id}/web-analytics/domains', 'post'],
      ['/organizations/{id}/sso', 'put'],
      ['/billing/events', 'post'],
    ];
    expect(commands.filter(([path = '', method = '']) => !withHeader(path, method))).toEqual([]);
    expect(withHeader('/organizations/{id}', 'get')).toBe(false);
  });
});

describe('with PROJECTIONS=off and no projector running', () => {
  let running: RunningApp;
  let api: HttpClient;

  beforeAll(async () => {
    running = await startApp({ PROJECTIONS: 'off' });
    api = httpClient(running.baseUrl, {
      apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
    });
  });

  afterAll(async () => {
    await running.close();
  });

  it('answers 2xx once the bound has passed, with Chorus-Consistency: pending (the write is durable)', async () => {
    const started = Date.now();
    const created = await api.post('/organizations', { name: 'Nobody projects me' });
    const elapsed = Date.now() - started;

    expect(created.status).toBe(201);
    expect(created.headers.get('chorus-consistency')).toBe('pending');
    expect(elapsed).toBeGreaterThanOrEqual(1_900);
    expect(elapsed).toBeLessThan(10_000);
    expect((await running.store.readStream(organizationStream(created.body.id))).found).toBe(true);
  }, 30_000);
});
