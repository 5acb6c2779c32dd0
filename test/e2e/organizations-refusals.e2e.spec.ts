// Every refusal of the organization routes: the right status and problem code, and nothing recorded.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization, expectRefusal } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp;
let api: HttpClient;
let readOnlyKey: string;
let writeKey: string;

beforeAll(async () => {
  running = await startApp();
  writeKey = await createApiKey(running.app, ['organizations:read', 'organizations:write']);
  readOnlyKey = await createApiKey(running.app, ['organizations:read', 'audit:read']);
  api = httpClient(running.baseUrl, { apiKey: writeKey });
});

afterAll(async () => {
  await running.close();
});

const essential = { plan: { line: 'classic', plan: 'essential' } } as const;

describe('domain refusals', () => {
  it('LIMIT_EXCEEDED (409) names the resource, the effective limit and the current count', async () => {
    const id = await createOrganization(api, { ...essential, limits: { users: 1 } });
    expect((await api.post(`/organizations/${id}/members`, { email: 'owner@example.com', role: 'owner' })).status).toBe(
      201,
    );

    const refused = await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/members`, { email: 'two@example.com', role: 'member' }),
      409,
      'LIMIT_EXCEEDED',
    );

    expect(refused.body).toMatchObject({ resource: 'users', limit: 1, count: 1 });
  });

  it('LIMIT_EXCEEDED for sites past the plan content-section limit', async () => {
    const id = await createOrganization(api, essential);
    expect((await api.post(`/organizations/${id}/sites`, { name: 'One', hostname: 'one.example' })).status).toBe(201);

    const refused = await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/sites`, { name: 'Two', hostname: 'two.example' }),
      409,
      'LIMIT_EXCEEDED',
    );

    expect(refused.body).toMatchObject({ resource: 'contentSections', limit: 1, count: 1 });
  });

  it('FEATURE_DISABLED (409) for a quality-assurance or web analytics domain without the feature', async () => {
    const id = await createOrganization(api, essential);

    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/quality-assurance/domains`, { domain: 'qa.example' }),
      409,
      'FEATURE_DISABLED',
    );
    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/web-analytics/domains`, { domain: 'wa.example' }),
      409,
      'FEATURE_DISABLED',
    );
  });

  it('NO_PLAN (409) for a member other than the first owner, or a site, before any plan', async () => {
    const id = await createOrganization(api);

    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/members`, { email: 'm@example.com', role: 'member' }),
      409,
      'NO_PLAN',
    );
    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/sites`, { name: 'Site', hostname: 'site.example' }),
      409,
      'NO_PLAN',
    );
    expect((await api.post(`/organizations/${id}/members`, { email: 'first@example.com', role: 'owner' })).status).toBe(
      201,
    );
  });

  it('INVALID_HOSTNAME (400) for a hostname without a dot, a site or a domain', async () => {
    const id = await createOrganization(api, {
      plan: { line: 'chorus', plan: 'enterprise' },
      chorus: { enabled: true },
    });

    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/sites`, { name: 'Intranet', hostname: 'intranet' }),
      400,
      'INVALID_HOSTNAME',
    );
    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/quality-assurance/domains`, { domain: 'http://' }),
      400,
      'INVALID_HOSTNAME',
    );
  });

  it.each([
    ['ftp://x.example.com', 'scheme', /scheme other than http/],
    ['-bad-.example.com', 'label', /part that is not allowed/],
    ['https://exa mple.com/path', 'space', /space/],
    ['intranet', 'no-dot', /needs a dot/],
  ])(
    'INVALID_HOSTNAME for %j gives its real reason (%s), not always the missing dot',
    async (hostname, reason, words) => {
      const id = await createOrganization(api, {
        plan: { line: 'chorus', plan: 'enterprise' },
        chorus: { enabled: true },
      });
      const answer = await api.post(`/organizations/${id}/sites`, { name: 'Site', hostname });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'INVALID_HOSTNAME', field: 'hostname', value: hostname, reason });
      expect(answer.body.detail).toMatch(words);
    },
  );

  it('DUPLICATE (409) for the same hostname, the same member e-mail, the same domain', async () => {
    const id = await createOrganization(api, {
      plan: { line: 'chorus', plan: 'enterprise' },
      chorus: { enabled: true },
    });
    expect((await api.post(`/organizations/${id}/sites`, { name: 'Shop', hostname: 'shop.example' })).status).toBe(201);
    expect((await api.post(`/organizations/${id}/members`, { email: 'ada@example.com', role: 'owner' })).status).toBe(
      201,
    );
    expect((await api.post(`/organizations/${id}/web-analytics/domains`, { domain: 'stats.example' })).status).toBe(
      201,
    );

    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/sites`, { name: 'Shop again', hostname: 'https://SHOP.example/' }),
      409,
      'DUPLICATE',
    );
    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/members`, { email: 'ADA@example.com', role: 'admin' }),
      409,
      'DUPLICATE',
    );
    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/web-analytics/domains`, { domain: 'stats.example' }),
      409,
      'DUPLICATE',
    );
  });

  it('ALREADY_EXISTS (409) for an organization id taken', async () => {
    const id = await createOrganization(api);

    await expectRefusal(
      running.store,
      id,
      () => api.post('/organizations', { name: 'Again', id }),
      409,
      'ALREADY_EXISTS',
    );
  });

  it('NOT_FOUND (404) for an organization that does not exist, a member, a site or a domain it does not have', async () => {
    const id = await createOrganization(api, essential);

    await expectRefusal(
      running.store,
      'no-such-organization',
      () => api.post('/organizations/no-such-organization/plan', essential.plan),
      404,
      'NOT_FOUND',
    );
    await expectRefusal(running.store, id, () => api.delete(`/organizations/${id}/members/nobody`), 404, 'NOT_FOUND');
    await expectRefusal(running.store, id, () => api.delete(`/organizations/${id}/sites/nothing`), 404, 'NOT_FOUND');
    await expectRefusal(
      running.store,
      id,
      () => api.delete(`/organizations/${id}/quality-assurance/domains/absent.example`),
      404,
      'NOT_FOUND',
    );
  });

  it('VALIDATION_FAILED (400) for a plan of the other line, from the domain', async () => {
    const id = await createOrganization(api);

    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/plan`, { line: 'classic', plan: 'teams' }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('LAST_OWNER (409) for removing the only owner', async () => {
    const id = await createOrganization(api, essential);
    const owner = await api.post(`/organizations/${id}/members`, { email: 'owner@example.com', role: 'owner' });

    await expectRefusal(
      running.store,
      id,
      () => api.delete(`/organizations/${id}/members/${owner.body.userId}`),
      409,
      'LAST_OWNER',
    );
  });

  it('INVALID_QUANTITY (409) for cancelling more units of an add-on than are active', async () => {
    const id = await createOrganization(api, { ...essential, addOns: [{ addOn: 'additionalUser', quantity: 1 }] });

    await expectRefusal(
      running.store,
      id,
      () => api.delete(`/organizations/${id}/add-ons/additionalUser?quantity=2`),
      409,
      'INVALID_QUANTITY',
    );
  });
});

describe('authentication and scopes', () => {
  let id: string;
  beforeAll(async () => {
    id = await createOrganization(api, essential);
  });

  const writes: [string, (client: HttpClient) => ReturnType<HttpClient['request']>][] = [
    ['POST /organizations', (client) => client.post('/organizations', { name: 'Nope' })],
    [
      'POST /organizations/:id/plan',
      (client) => client.post(`/organizations/${id}/plan`, { line: 'classic', plan: 'enterprise' }),
    ],
    [
      'POST /organizations/:id/members',
      (client) => client.post(`/organizations/${id}/members`, { email: 'x@example.com', role: 'owner' }),
    ],
    ['DELETE /organizations/:id/add-ons/:addOn', (client) => client.delete(`/organizations/${id}/add-ons/feedback`)],
    ['PUT /organizations/:id/limits', (client) => client.put(`/organizations/${id}/limits`, { users: 9 })],
  ];

  it.each(writes)('%s without credentials is 401 UNAUTHENTICATED', async (_route, call) => {
    await expectRefusal(running.store, id, () => call(httpClient(running.baseUrl)), 401, 'UNAUTHENTICATED');
  });

  it.each(writes)('%s with a key lacking organizations:write is 403 FORBIDDEN', async (_route, call) => {
    await expectRefusal(
      running.store,
      id,
      () => call(httpClient(running.baseUrl, { apiKey: readOnlyKey })),
      403,
      'FORBIDDEN',
    );
  });

  it.each([
    ['a malformed key', () => 'not-a-key'],
    ['an unknown key', () => `chrs_${'0'.repeat(24)}_${'A'.repeat(43)}`],
    // chrs_ + 24 hex + _ is 30 characters: the key id of a real key, with another secret.
    ['a known key id with a wrong secret', () => `${writeKey.slice(0, 30)}${'B'.repeat(43)}`],
  ])('%s is 401 UNAUTHENTICATED', async (_case, apiKey) => {
    const client = httpClient(running.baseUrl, { apiKey: apiKey() });
    await expectRefusal(
      running.store,
      id,
      () => client.post(`/organizations/${id}/members`, { email: 'y@example.com', role: 'owner' }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('another authorization scheme is not a credential: 401 UNAUTHENTICATED', async () => {
    await expectRefusal(
      running.store,
      id,
      () => api.put(`/organizations/${id}/limits`, { users: 9 }, { headers: { authorization: 'Basic dXNlcjpwYXNz' } }),
      401,
      'UNAUTHENTICATED',
    );
  });
});
