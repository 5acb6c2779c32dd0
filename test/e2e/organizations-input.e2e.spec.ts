// Malformed requests to the organization routes: always a 4xx problem, never a 500, and nothing recorded.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization, expectRefusal, organizationEvents } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp;
let api: HttpClient;
let id: string;

beforeAll(async () => {
  running = await startApp();
  api = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
  });
  id = await createOrganization(api, { plan: { line: 'chorus', plan: 'enterprise' }, chorus: { enabled: true } });
});

afterAll(async () => {
  await running.close();
});

const bodyRoutes: [method: string, route: string][] = [
  ['POST', ''],
  ['POST', '/:id/plan'],
  ['POST', '/:id/add-ons'],
  ['PUT', '/:id/chorus'],
  ['PUT', '/:id/limits'],
  ['POST', '/:id/members'],
  ['POST', '/:id/sites'],
  ['POST', '/:id/quality-assurance/domains'],
  ['POST', '/:id/web-analytics/domains'],
];

describe('bodies', () => {
  it.each([
    ['a wrong type', '/organizations', { name: 42 }, '#/name'],
    ['a missing field', `/members`, { role: 'owner' }, '#/email'],
    ['a value outside its vocabulary', '/plan', { line: 'classic', plan: 'platinum' }, '#/plan'],
    ['an unknown field', '/sites', { name: 'Shop', hostname: 'shop.example', owner: 'me' }, '#/'],
    ['a negative limit', '/limits', { users: -1 }, '#/users'],
    ['a fractional quantity', '/add-ons', { addOn: 'feedback', quantity: 1.5 }, '#/quantity'],
  ])('%s is 400 VALIDATION_FAILED, with a pointer to the field', async (_case, route, body, pointer) => {
    const path = route === '/organizations' ? route : `/organizations/${id}${route}`;
    const method = route === '/limits' ? 'PUT' : 'POST';

    const refused = await expectRefusal(
      running.store,
      id,
      () => api.request(method, path, { json: body }),
      400,
      'VALIDATION_FAILED',
    );

    expect(refused.body.errors).toContainEqual({ pointer, detail: expect.any(String) });
  });

  it('no body at all is 400 VALIDATION_FAILED', async () => {
    await expectRefusal(running.store, id, () => api.post(`/organizations/${id}/members`), 400, 'VALIDATION_FAILED');
  });

  it('an array instead of an object is 400 VALIDATION_FAILED', async () => {
    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/members`, [{ email: 'a@example.com', role: 'owner' }]),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('invalid JSON is 400 INVALID_JSON', async () => {
    await expectRefusal(
      running.store,
      id,
      () =>
        api.post(`/organizations/${id}/members`, undefined, {
          raw: '{"email": "a@example.com", ',
          headers: { 'content-type': 'application/json' },
        }),
      400,
      'INVALID_JSON',
    );
  });

  it('a body over 16 KB is 413 PAYLOAD_TOO_LARGE', async () => {
    const refused = await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/sites`, { name: 'x'.repeat(20_000), hostname: 'big.example' }),
      413,
      'PAYLOAD_TOO_LARGE',
    );

    expect(refused.body.limit).toBe(16 * 1024);
  });

  it.each([
    ['text/plain', 'name=Acme'],
    ['application/x-www-form-urlencoded', 'name=Acme'],
    ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAcme\r\n--x--'],
  ])('a %s body is 415 UNSUPPORTED_MEDIA_TYPE', async (contentType, raw) => {
    await expectRefusal(
      running.store,
      id,
      () => api.post(`/organizations/${id}/sites`, undefined, { raw, headers: { 'content-type': contentType } }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it.each(bodyRoutes)(
    '%s /organizations%s answers any JSON value with a 4xx problem, never a 500, and records nothing',
    async (method, route) => {
      const path = `/organizations${route.replace(':id', id)}`;
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (body) => {
          const before = await organizationEvents(running.store, id);
          const response = await api.request(method, path, {
            raw: JSON.stringify(body),
            headers: { 'content-type': 'application/json' },
          });
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          expect(response.body.code).toEqual(expect.any(String));
          expect(await organizationEvents(running.store, id)).toEqual(before);
        }),
        { numRuns: 40 },
      );
    },
  );
});

describe('path and query parameters', () => {
  it.each([
    [
      'an organization id with capitals',
      () => api.post('/organizations/Not_A_Slug/plan', { line: 'classic', plan: 'essential' }),
    ],
    ['an unknown add-on', () => api.delete(`/organizations/${id}/add-ons/platinum`)],
    ['a quantity that is not a number', () => api.delete(`/organizations/${id}/add-ons/feedback?quantity=many`)],
    ['an unknown query parameter', () => api.delete(`/organizations/${id}/add-ons/feedback?quantiy=1`)],
    ['a member id with a slash', () => api.delete(`/organizations/${id}/members/a%2Fb`)],
  ])('%s is 400 VALIDATION_FAILED', async (_case, call) => {
    await expectRefusal(running.store, id, call, 400, 'VALIDATION_FAILED');
  });

  it('any member or site id answers a 4xx problem, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 300 }),
        fc.constantFrom('members', 'sites', 'quality-assurance/domains'),
        async (value, list) => {
          const response = await api.delete(`/organizations/${id}/${list}/${encodeURIComponent(value)}`);
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('an unknown route is 404 NOT_FOUND as problem+json', async () => {
    const response = await api.post(`/organizations/${id}/nothing-here`, {});

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body.code).toBe('NOT_FOUND');
  });
});
