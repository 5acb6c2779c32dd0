// The organization read model over HTTP: GET /organizations/:id, notification recipients,
// ?minPosition read-your-writes, and /health with a projection stopped by a poison event.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { organizationStream } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

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

describe('GET /organizations/:id', () => {
  it('answers the read model once it has reached the position a command answered', async () => {
    const id = await createOrganization(api, {
      plan: { line: 'chorus', plan: 'teams' },
      chorus: { enabled: true, parallelUse: true },
    });
    const site = await api.post(`/organizations/${id}/sites`, { name: 'Shop', hostname: 'bücher.example' });
    expect(site.status).toBe(201);

    const response = await api.get(`/organizations/${id}?minPosition=${site.body.position}`);

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id,
      name: 'Test organization',
      plan: null,
      chorus: true,
      chorusDetails: { plan: 'teams', parallelUse: true },
      chorusFeatures: expect.objectContaining({ matomoIntegration: true }),
      features: { multiSite: expect.any(Boolean) },
      limits: {
        configured: expect.objectContaining({ users: 5, contentSections: 2 }),
        hard: expect.objectContaining({ users: 10 }),
        effective: expect.objectContaining({ users: 5, contentSections: 2 }),
        override: false,
      },
      usage: { users: 0, contentSections: 1, qualityAssuranceDomains: 0, webAnalyticsDomains: 0 },
      canAdd: expect.objectContaining({ contentSections: true }),
      trafficPerMonth: 1_000_000,
      sites: [
        expect.objectContaining({
          name: 'Shop',
          hostname: 'bücher.example',
          siteId: site.body.siteId ?? expect.any(String),
        }),
      ],
      qualityAssurance: { domains: [] },
      webAnalytics: { domains: [] },
      position: site.body.position,
      revision: site.body.revision,
    });
  });

  it('answers 503 NOT_YET_CONSISTENT when the model does not reach minPosition in time', async () => {
    const id = await createOrganization(api);
    const head = await running.store.headPosition();

    const response = await api.get(`/organizations/${id}?minPosition=${(head ?? 0n) + 1000n}`);

    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.body).toMatchObject({ code: 'NOT_YET_CONSISTENT', status: 503 });
  });

  it('refuses a malformed minPosition, an unknown organization, and a caller without credentials', async () => {
    const id = await createOrganization(api);
    expect((await api.get(`/organizations/${id}?minPosition=soon`)).body).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    expect((await api.get(`/organizations/${id}?other=1`)).body).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    expect((await api.get('/organizations/no-such-organization')).body).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    expect((await api.get(`/organizations/${id}`, { apiKey: 'chorus_nobody_nothing' })).status).toBe(401);
  });
});

describe('reading your writes by header', () => {
  it('names the position of each write in Chorus-Position (SCIM, whose answers hold none, in scim-postgres)', async () => {
    const id = await createOrganization(api, { plan: { line: 'classic', plan: 'professional' } });
    const site = await api.post(`/organizations/${id}/sites`, { name: 'Shop', hostname: 'shop.example' });
    expect(site.headers.get('chorus-position')).toBe(String(site.body.position));

    const removed = await api.request('DELETE', `/organizations/${id}/sites/${site.body.siteId as string}`);

    expect(removed.status).toBe(200);
    expect(BigInt(removed.headers.get('chorus-position') ?? '0')).toBeGreaterThan(BigInt(site.body.position));
    expect(BigInt(removed.headers.get('chorus-position') ?? '0')).toBe(await running.store.headPosition());
  });

  it('answers a read naming a position once this node has read that far, on any route, or 503 past its bound', async () => {
    const id = await createOrganization(api);
    const head = (await running.store.headPosition()) ?? 0n;

    const read = await api.request('GET', `/organizations/${id}/notification-recipients`, {
      headers: { 'chorus-min-position': String(head) },
    });
    expect(read.status).toBe(200);

    const ahead = await api.request('GET', `/organizations/${id}`, {
      headers: { 'chorus-min-position': String(head + 1000n) },
    });
    expect([ahead.status, ahead.headers.get('retry-after'), ahead.body.code]).toEqual([503, '1', 'NOT_YET_CONSISTENT']);
  });

  it('refuses a Chorus-Min-Position that is not a position, naming the header', async () => {
    const id = await createOrganization(api);
    const refused = await api.request('GET', `/organizations/${id}`, { headers: { 'chorus-min-position': 'soon' } });

    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ parameter: 'Chorus-Min-Position', detail: expect.any(String) }],
    });
  });
});

describe('GET /organizations/:id between commits', () => {
  it('answers the same JSON text until a commit to either read model it is made of, then what a node that never cached it answers', async () => {
    const id = await createOrganization(api, { plan: { line: 'classic', plan: 'professional' } });
    const ada = await api.post(`/organizations/${id}/members`, { email: 'ada.cached@example.com', role: 'member' });
    const first = await api.get(`/organizations/${id}?minPosition=${ada.body.position}`);
    const again = await api.get(`/organizations/${id}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(again.text).toBe(first.text);
    expect(first.body.members).toContainEqual(expect.objectContaining({ userId: ada.body.userId, invited: true }));

    // Ada's first sign-in is a commit to the sign-ins model only: the answer, made of both, changes with it.
    const signedIn = await running.store.append(
      `user-${ada.body.userId}`,
      [
        {
          id: randomUUID(),
          type: 'SignedIn',
          data: { userId: ada.body.userId },
          metadata: { actor: `user:${ada.body.userId}`, correlationId: 'c', causationId: 'c' },
        },
      ],
      'any',
    );
    const after = await api.get(`/organizations/${id}?minPosition=${signedIn.position}`);
    expect(after.body.members).toContainEqual(expect.objectContaining({ userId: ada.body.userId, invited: false }));

    const fresh = await startApp({ DATA_DIR: running.dataDir, PROJECTIONS: 'off' });
    try {
      const freshApi = httpClient(fresh.baseUrl, { apiKey: await createApiKey(fresh.app, ['organizations:read']) });
      expect((await freshApi.get(`/organizations/${id}`)).text).toBe(after.text);
      expect((await api.get(`/organizations/${id}`)).text).toBe(after.text);
    } finally {
      await fresh.close();
    }
  });
});

describe('GET /organizations/:id/notification-recipients', () => {
  it('follows the seed’s rule: with parallel use, only Chorus users are notified', async () => {
    const id = await createOrganization(api, {
      plan: { line: 'chorus', plan: 'enterprise' },
      chorus: { enabled: true, parallelUse: true },
    });
    const ada = await api.post(`/organizations/${id}/members`, {
      email: 'ada@example.com',
      role: 'owner',
      chorusUser: true,
    });
    const bob = await api.post(`/organizations/${id}/members`, {
      email: 'bob@example.com',
      role: 'member',
      chorusUser: false,
    });
    expect([ada.status, bob.status]).toEqual([201, 201]);

    const response = await api.get(`/organizations/${id}/notification-recipients?minPosition=${bob.body.position}`);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      organizationId: id,
      recipients: [{ userId: ada.body.userId, email: 'ada@example.com', role: 'owner', chorusUser: true }],
      position: bob.body.position,
    });
  });
});

describe('GET /health', () => {
  it('is ready while every projection is live, and reports the store and the lag', async () => {
    const response = await api.get('/health');

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      live: true,
      ready: true,
      eventStore: { reachable: true },
      projections: [
        expect.objectContaining({
          name: 'organizations',
          state: 'live',
          runs: 'inline',
          checkpoint: expect.any(Number),
          lag: expect.any(Number),
        }),
        expect.objectContaining({ name: 'correlations', state: 'live' }),
        expect.objectContaining({ name: 'sign-ins', state: 'live' }),
        expect.objectContaining({ name: 'organization-history', state: 'live' }),
        expect.objectContaining({ name: 'traffic', state: 'live' }),
        expect.objectContaining({ name: 'member-security', state: 'live' }),
      ],
    });
  });

  it('shows a projection stopped at a poison event, with the event, and answers 503', async () => {
    const poisoned = await startApp();
    try {
      const client = httpClient(poisoned.baseUrl, {
        apiKey: await createApiKey(poisoned.app, ['organizations:read', 'organizations:write']),
      });
      const id = await createOrganization(client);
      const poison = await poisoned.store.append(
        organizationStream(id),
        [
          {
            id: randomUUID(),
            type: 'OrganizationMerged',
            data: {},
            metadata: { actor: 'system', correlationId: 'c', causationId: 'c' },
          },
        ],
        'stream_exists',
      );
      // The read never reaches the poison event: it is not skipped.
      expect((await client.get(`/organizations/${id}?minPosition=${poison.position}`)).status).toBe(503);

      const health = await client.get('/health');

      expect(health.status).toBe(503);
      expect(health.body.ready).toBe(false);
      expect(health.body.projections[0]).toMatchObject({
        name: 'organizations',
        state: 'failed',
        checkpoint: Number(poison.position) - 1,
        error: {
          position: Number(poison.position),
          eventType: 'OrganizationMerged',
          streamId: organizationStream(id),
          message: expect.stringMatching(/unknown event type/),
        },
      });
      expect(poisoned.logs).toContainEqual(
        expect.objectContaining({
          msg: 'projection stopped at an event it cannot apply',
          eventType: 'OrganizationMerged',
        }),
      );
    } finally {
      await poisoned.close();
    }
  });
});
