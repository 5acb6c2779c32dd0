// Every write route of docs/api.md's Organizations table, end to end over HTTP on the embedded store.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization, organizationEvents } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp;
let api: HttpClient;
let keyId: string;

beforeAll(async () => {
  running = await startApp();
  const key = await createApiKey(running.app, ['organizations:read', 'organizations:write']);
  keyId = key.slice(5, 29);
  api = httpClient(running.baseUrl, { apiKey: key });
});

afterAll(async () => {
  await running.close();
});

const answer = { id: expect.any(String), revision: expect.any(Number), position: expect.any(Number) };

async function lastEvent(organizationId: string) {
  const events = await organizationEvents(running.store, organizationId);
  return events.at(-1);
}

describe('POST /organizations', () => {
  it('creates an organization with a new id: 201 {id, revision, position} and its Location', async () => {
    const response = await api.post('/organizations', { name: 'Acme' });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      revision: 0,
      position: expect.any(Number),
    });
    expect(response.headers.get('location')).toBe(`/organizations/${response.body.id}`);
    const events = await organizationEvents(running.store, response.body.id);
    expect(events.map(({ type, data }) => ({ type, data }))).toEqual([
      { type: 'OrganizationCreated', data: { id: response.body.id, name: 'Acme' } },
    ]);
    expect(BigInt(response.body.position)).toBe(events[0]?.position);
  });

  it('creates an organization under the id given', async () => {
    const response = await api.post('/organizations', { name: 'Globex', id: 'globex-e2e' });

    expect(response.status).toBe(201);
    expect(response.body).toEqual({ id: 'globex-e2e', revision: 0, position: expect.any(Number) });
  });
});

describe('event metadata', () => {
  it('records the actor, the correlation id the caller sent behind its name (answered too) and the causation id', async () => {
    const response = await api.post(
      '/organizations',
      { name: 'Initech' },
      { headers: { 'X-Correlation-Id': 'e2e-correlation-42' } },
    );

    expect(response.headers.get('x-correlation-id')).toBe(`api-key:${keyId}:e2e-correlation-42`);
    expect((await lastEvent(response.body.id))?.metadata).toEqual({
      actor: `api-key:${keyId}`,
      correlationId: `api-key:${keyId}:e2e-correlation-42`,
      causationId: `api-key:${keyId}:e2e-correlation-42`,
      commandType: 'CreateOrganization',
      clientIp: expect.any(String),
      userAgent: expect.any(String),
      schemaVersion: 1,
    });
  });

  it('gives a request without a usable correlation id a new one', async () => {
    const response = await api.post(
      '/organizations',
      { name: 'Umbrella' },
      { headers: { 'X-Correlation-Id': 'not valid; has spaces' } },
    );

    const correlationId = response.headers.get('x-correlation-id');
    expect(correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await lastEvent(response.body.id))?.metadata.correlationId).toBe(correlationId);
  });
});

describe('plans, add-ons, Chorus and limits', () => {
  let id: string;
  beforeAll(async () => {
    id = await createOrganization(api);
  });

  it('POST /organizations/:id/plan records PlanAssigned', async () => {
    const response = await api.post(`/organizations/${id}/plan`, {
      line: 'chorus',
      plan: 'teams',
      serviceLevel: 'assisted',
    });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...answer, id, revision: 1 });
    expect(await lastEvent(id)).toMatchObject({
      type: 'PlanAssigned',
      data: { line: 'chorus', plan: 'teams', serviceLevel: 'assisted' },
      revision: 1n,
    });
  });

  it('POST /organizations/:id/add-ons records AddOnPurchased', async () => {
    const response = await api.post(`/organizations/${id}/add-ons`, { addOn: 'additionalUser', quantity: 3 });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...answer, id, revision: 2 });
    expect(await lastEvent(id)).toMatchObject({
      type: 'AddOnPurchased',
      data: { addOn: 'additionalUser', quantity: 3 },
    });
  });

  it('DELETE /organizations/:id/add-ons/:addOn?quantity=N cancels N units, without quantity every active unit', async () => {
    const some = await api.delete(`/organizations/${id}/add-ons/additionalUser?quantity=1`);
    expect(some.status).toBe(200);
    expect(await lastEvent(id)).toMatchObject({
      type: 'AddOnCancelled',
      data: { addOn: 'additionalUser', quantity: 1 },
    });

    const rest = await api.delete(`/organizations/${id}/add-ons/additionalUser`);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual({ ...answer, id, revision: 4 });
    expect(await lastEvent(id)).toMatchObject({
      type: 'AddOnCancelled',
      data: { addOn: 'additionalUser', quantity: 2 },
    });
  });

  it('PUT /organizations/:id/chorus enables (with parallel use) and disables the Chorus line', async () => {
    const enabled = await api.put(`/organizations/${id}/chorus`, { enabled: true, parallelUse: true });
    expect(enabled.status).toBe(200);
    expect(await lastEvent(id)).toMatchObject({ type: 'ChorusEnabled', data: { parallelUse: true } });

    const disabled = await api.put(`/organizations/${id}/chorus`, { enabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toEqual({ ...answer, id, revision: 6 });
    expect(await lastEvent(id)).toMatchObject({ type: 'ChorusDisabled' });
  });

  it('PUT /organizations/:id/limits records LimitsConfigured with what changed', async () => {
    const response = await api.put(`/organizations/${id}/limits`, { users: 3, contentSections: 0, override: true });

    expect(response.status).toBe(200);
    expect(await lastEvent(id)).toMatchObject({
      type: 'LimitsConfigured',
      data: { users: 3, contentSections: 0, override: true },
    });
  });

  it('answers a command that changes nothing with the current revision and position, recording nothing', async () => {
    const before = await organizationEvents(running.store, id);

    const response = await api.put(`/organizations/${id}/limits`, { users: 3 });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id,
      revision: Number(before.at(-1)?.revision),
      position: Number(before.at(-1)?.position),
    });
    expect(await organizationEvents(running.store, id)).toEqual(before);
  });
});

describe('members', () => {
  it('POST adds a member (201, with its new userId); DELETE removes it', async () => {
    const id = await createOrganization(api, { plan: { line: 'classic', plan: 'essential' } });

    const added = await api.post(`/organizations/${id}/members`, {
      email: 'ada@example.com',
      role: 'admin',
      chorusUser: true,
    });
    expect(added.status).toBe(201);
    // ada@example.com has no account: she is sent an invitation (to the outbox, without SMTP_URL), after this answer.
    expect(added.body).toEqual({
      ...answer,
      id,
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      invitation: 'pending',
    });
    expect(await lastEvent(id)).toMatchObject({
      type: 'MemberAdded',
      data: { userId: added.body.userId, email: 'ada@example.com', role: 'admin', chorusUser: true },
    });

    const removed = await api.delete(`/organizations/${id}/members/${added.body.userId}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ ...answer, id, revision: added.body.revision + 1 });
    expect(await lastEvent(id)).toMatchObject({ type: 'MemberRemoved', data: { userId: added.body.userId } });
  });
});

describe('sites', () => {
  it('POST adds a site with its hostname normalized to ASCII (201, with its siteId); DELETE removes it', async () => {
    const id = await createOrganization(api, { plan: { line: 'classic', plan: 'professional' } });

    const added = await api.post(`/organizations/${id}/sites`, { name: 'Bookshop', hostname: 'bücher.example' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({ ...answer, id, siteId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await lastEvent(id)).toMatchObject({
      type: 'SiteAdded',
      data: { siteId: added.body.siteId, name: 'Bookshop', hostname: 'xn--bcher-kva.example' },
    });

    const removed = await api.delete(`/organizations/${id}/sites/${added.body.siteId}`);
    expect(removed.status).toBe(200);
    expect(await lastEvent(id)).toMatchObject({ type: 'SiteRemoved', data: { siteId: added.body.siteId } });
  });
});

describe('quality-assurance and web analytics domains', () => {
  it.each([
    ['quality-assurance', 'qualityAssurance', 'QualityAssuranceDomain'],
    ['web-analytics', 'webAnalytics', 'WebAnalyticsDomain'],
  ])(
    'POST /organizations/:id/%s/domains adds a domain, DELETE removes it (in either form)',
    async (path, addOn, event) => {
      // The feature comes with the add-on, on the Chorus line.
      const id = await createOrganization(api, {
        plan: { line: 'chorus', plan: 'solo' },
        chorus: { enabled: true },
        addOns: [{ addOn }],
      });

      const added = await api.post(`/organizations/${id}/${path}/domains`, { domain: 'https://Café.example/shop' });
      expect(added.status).toBe(201);
      expect(added.body).toEqual({ ...answer, id });
      expect(await lastEvent(id)).toMatchObject({ type: `${event}Added`, data: { domain: 'xn--caf-dma.example' } });

      const removed = await api.delete(`/organizations/${id}/${path}/domains/${encodeURIComponent('café.example')}`);
      expect(removed.status).toBe(200);
      expect(await lastEvent(id)).toMatchObject({ type: `${event}Removed`, data: { domain: 'xn--caf-dma.example' } });
    },
  );
});
