// No organization reaches another's data (docs/api.md, Access): every route of the router under /organizations/:id,
// called by another organization's owner (a session) and by a key of that organization with every scope, is refused,
// answers nothing of the organization it names and changes nothing. Then the other way an attacker tries: their own
// organization in the path, which passes the access check, and the victim's members, sites, domains, endpoints,
// tokens and correlation ids as the objects. Walks the router's own list, so a route added later is attacked
// without being named here (a write it cannot make valid fails the test, naming the route).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_KEY_SCOPES, organizationStream, userStream } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import type { Browser } from '../support/browser.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { IdentityProvider } from '../support/identity-provider.js';
import { routerRoutes } from '../support/router-routes.js';

const password = 'correct horse battery staple';
const EVERY_SCOPE = [...API_KEY_SCOPES];

let app: AuthApp;
let idp: IdentityProvider;
let operator: HttpClient;
/** The victim's organization, what it holds, and the words that must appear in no answer to the attacker. */
const acme = { id: '', ownerId: '', memberId: '', siteId: '', webhookId: '', tokenId: '', correlationId: '' };
const acmeWords = [
  'Acme Isolation',
  'alice@acme-iso.example',
  'bob@acme-iso.example',
  'shop.acme-iso.example',
  'hooks.acme-iso.example',
  'Acme SCIM',
];
let globex: string;
let mallory: Browser;
let globexKey: HttpClient;
let alice: Browser;

beforeAll(async () => {
  idp = await IdentityProvider.start();
  app = await startAuthApp({ LOG_LEVEL: 'silent' });
  operator = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, EVERY_SCOPE) });

  acme.ownerId = await app.createUser({ email: 'alice@acme-iso.example', password });
  acme.id = await app.createOrganization('Acme Isolation', { userId: acme.ownerId, email: 'alice@acme-iso.example' });
  expect((await operator.post(`/organizations/${acme.id}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(
    200,
  );
  alice = await app.signedIn('alice@acme-iso.example', password);
  const added = await alice.post(`/organizations/${acme.id}/members`, { email: 'bob@acme-iso.example', role: 'admin' });
  acme.memberId = added.body.userId;
  acme.correlationId = added.headers.get('x-correlation-id') ?? '';
  acme.siteId = (
    await alice.post(`/organizations/${acme.id}/sites`, { name: 'Shop', hostname: 'shop.acme-iso.example' })
  ).body.siteId;
  expect(
    (await alice.post(`/organizations/${acme.id}/quality-assurance/domains`, { domain: 'qa.acme-iso.example' })).status,
  ).toBe(201);
  expect(
    (await alice.post(`/organizations/${acme.id}/web-analytics/domains`, { domain: 'stats.acme-iso.example' })).status,
  ).toBe(201);
  const sso = {
    issuer: idp.issuer,
    clientId: 'acmeIso',
    clientSecret: 'acme-iso-secret',
    domains: ['acme-iso.example'],
  };
  expect((await alice.request('PUT', `/organizations/${acme.id}/sso`, { json: sso })).status).toBe(200);
  const hook = await alice.post(`/organizations/${acme.id}/webhooks`, {
    url: 'https://hooks.acme-iso.example/chorus',
    events: ['*'],
  });
  acme.webhookId = hook.body.id;
  expect(
    (await alice.request('PATCH', `/organizations/${acme.id}/webhooks/${acme.webhookId}`, { json: { enabled: false } }))
      .status,
  ).toBe(200);
  acme.tokenId = (await alice.post(`/organizations/${acme.id}/scim/tokens`, { name: 'Acme SCIM' })).body.id;
  for (const [name, value] of Object.entries(acme))
    expect({ name, value }).toEqual({ name, value: expect.stringMatching(/.+/) });

  const malloryId = await app.createUser({ email: 'mallory@globex-iso.example', password });
  globex = await app.createOrganization('Globex Isolation', { userId: malloryId, email: 'mallory@globex-iso.example' });
  expect((await operator.post(`/organizations/${globex}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(
    200,
  );
  mallory = await app.signedIn('mallory@globex-iso.example', password);
  globexKey = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, EVERY_SCOPE, 'globex', globex) });
}, 60_000);

afterAll(async () => {
  await app.close();
  await idp.stop();
});

/**
 * A call each write accepts from the organization's own owner, so a refusal comes from access and not from the body.
 */
const VALID_BODIES: Record<string, unknown> = {
  'POST /organizations/:id/plan': { line: 'chorus', plan: 'teams' },
  'POST /organizations/:id/add-ons': { addOn: 'additionalUser', quantity: 1 },
  'PUT /organizations/:id/chorus': { enabled: false },
  'PUT /organizations/:id/limits': { users: 1 },
  'POST /organizations/:id/members': { email: 'friend@globex-iso.example', role: 'owner' },
  'PATCH /organizations/:id/members/:userId': { role: 'owner' },
  'POST /organizations/:id/sites': { name: 'Evil', hostname: 'evil.globex-iso.example' },
  'POST /organizations/:id/quality-assurance/domains': { domain: 'evil.globex-iso.example' },
  'POST /organizations/:id/web-analytics/domains': { domain: 'evil.globex-iso.example' },
  'PUT /organizations/:id/two-step-sign-in': { required: true },
  'PUT /organizations/:id/sso': {
    issuer: 'http://127.0.0.1:9/',
    clientId: 'evil',
    clientSecret: 'evil',
    domains: ['globex-iso.example'],
  },
  'PUT /organizations/:id/sso/domains/:domain/join': { join: 'automatic', role: 'admin' },
  'POST /organizations/:id/webhooks': { url: 'https://evil.globex-iso.example/hook', events: ['*'] },
  'PATCH /organizations/:id/webhooks/:webhookId': { url: 'https://evil.globex-iso.example/hook', enabled: true },
  'POST /organizations/:id/webhooks/:webhookId/replay': { fromPosition: '0' },
  'POST /organizations/:id/scim/tokens': { name: 'Evil' },
  'PUT /organizations/:id/scim/group-roles': { Evil: 'owner' },
};

/** The victim's object for each path parameter (`:addOn` is the catalogue's, no organization's). */
const objectOf = (parameter: string): string =>
  ({
    userId: acme.memberId,
    siteId: acme.siteId,
    domain: 'acme-iso.example',
    webhookId: acme.webhookId,
    tokenId: acme.tokenId,
    correlationId: acme.correlationId,
    addOn: 'additionalUser',
  })[parameter] ?? `no-such-${parameter}`;

const organizationRoutes = (): [string, string][] =>
  [...routerRoutes(app).keys()]
    .map((key) => key.split(' ') as [string, string])
    .filter(([, path]) => path.startsWith('/organizations/:id'));

const concrete = (path: string, organizationId: string): string =>
  path
    .replace(':id', organizationId)
    .replace(/:(\w+)/g, (_, parameter: string) => encodeURIComponent(objectOf(parameter)));

type Caller = {
  name: string;
  call: (method: string, path: string, json?: unknown) => Promise<{ status: number; text: string }>;
};

const callers = (): Caller[] => [
  {
    name: 'the owner of Globex',
    call: (method, path, json) => mallory.request(method, path, json === undefined ? {} : { json }),
  },
  {
    name: 'a key of Globex with every scope',
    call: (method, path, json) => globexKey.request(method, path, json === undefined ? {} : { json }),
  },
];

const bodyOf = (method: string, route: string): unknown =>
  VALID_BODIES[`${method} ${route}`] ?? (['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined);

/** What the log holds of Acme after the attacks, to compare with before. */
async function acmeAsStored(): Promise<string> {
  const streams = [organizationStream(acme.id), userStream(acme.ownerId), userStream(acme.memberId)];
  const read = await Promise.all(streams.map((stream) => app.store.readStream(stream)));
  const answers = await Promise.all(
    [
      `/organizations/${acme.id}`,
      `/organizations/${acme.id}/webhooks`,
      `/organizations/${acme.id}/scim/tokens`,
      `/organizations/${acme.id}/scim/group-roles`,
    ].map(async (path) => (await alice.get(path)).text),
  );
  return JSON.stringify([
    read.map((stream) => (stream.found ? stream.events.length : 0)),
    answers.map((text) => text.replace(/"lastUsedAt":[^,}]*/g, '')),
  ]);
}

describe("another organization's owner and keys", () => {
  it('are refused on every route that names the organization, learn nothing of it and change nothing', async () => {
    const routes = organizationRoutes();
    expect(routes.length).toBeGreaterThan(45);
    // The ids are the victim's real ones: its owner reads each object.
    for (const path of [
      `/organizations/${acme.id}/webhooks/${acme.webhookId}`,
      `/organizations/${acme.id}/correlations/${acme.correlationId}`,
    ]) {
      expect({ path, status: (await alice.get(path)).status }).toEqual({ path, status: 200 });
    }
    const before = await acmeAsStored();
    const wrong: string[] = [];
    for (const [method, route] of routes) {
      for (const { name, call } of callers()) {
        const answer = await call(method, concrete(route, acme.id), bodyOf(method, route));
        const leaked = acmeWords.filter((word) => answer.text.includes(word));
        if (![403, 404].includes(answer.status) || leaked.length > 0)
          wrong.push(`${method} ${route} by ${name}: ${answer.status} ${answer.text.slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await acmeAsStored()).toBe(before);
  });

  it("through their own organization, reach none of the victim's members, sites, domains, endpoints, tokens or correlations", async () => {
    const withObjects = organizationRoutes().filter(([, route]) => /:(?!id\b|addOn\b)\w+/.test(route));
    expect(withObjects.length).toBeGreaterThan(15);
    const before = await acmeAsStored();
    const wrong: string[] = [];
    for (const [method, route] of withObjects) {
      for (const { name, call } of callers()) {
        const answer = await call(method, concrete(route, globex), bodyOf(method, route));
        // Nor the victim's id: its events name their stream by it.
        const leaked = [...acmeWords, acme.id].filter((word) => answer.text.includes(word));
        // A read may answer "nothing here" (200 with no events); anything else must be refused.
        const refused = [400, 403, 404, 409].includes(answer.status) || (method === 'GET' && answer.status === 200);
        if (!refused || leaked.length > 0)
          wrong.push(`${method} ${route} by ${name}: ${answer.status} ${answer.text.slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await acmeAsStored()).toBe(before);
    expect((await alice.get('/session')).status).toBe(200);
  });
});
