// An identity provider provisioning through two nodes that share nothing but PostgreSQL: their creates race for one
// organization's and one directory's streams, and every one is answered 201 (the server decides a lost race again
// itself: no 503 reaches the provider), every person ending a member with their resource.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startPostgresServer, type PostgresServer } from '../../libs/event-store/src/testing/postgres-server.js';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { IdentityProvider } from '../support/identity-provider.js';
import { proveSsoDomain } from '../support/sso-domains.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`PostgreSQL SCIM suite SKIPPED: ${started.skip}.\n`);
const missing = dnsServerMissing();
if (missing !== undefined) throw new Error(missing);

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

(server === undefined ? describe.skip : describe)('SCIM on two nodes over PostgreSQL', () => {
  let dns: DnsServer;
  let idp: IdentityProvider;
  let nodeA: AuthApp;
  let nodeB: AuthApp;
  let api: HttpClient;
  let organizationId: string;
  let token: string;

  const scim = (node: AuthApp, method: string, path: string, body?: unknown) =>
    httpClient(node.baseUrl).request(method, `/scim/v2${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/scim+json',
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { raw: JSON.stringify(body) }),
    });

  beforeAll(async () => {
    const databaseUrl = await (server as PostgresServer).createDatabase('chorus_scim_two_nodes');
    dns = await DnsServer.start(['acme.example']);
    idp = await IdentityProvider.start();
    const settings = { DATABASE_URL: databaseUrl, DNS_SERVERS: dns.address, LOG_LEVEL: 'warn' };
    nodeA = await startAuthApp(settings);
    nodeB = await startAuthApp(settings);
    api = httpClient(nodeA.baseUrl, {
      apiKey: await createApiKey(nodeA.app, ['organizations:read', 'organizations:write']),
    });
    const created = await api.post('/organizations', { name: 'Acme' });
    organizationId = created.body.id as string;
    expect(
      (await api.post(`/organizations/${organizationId}/plan`, { line: 'chorus', plan: 'enterprise' })).status,
    ).toBe(200);
    expect((await api.put(`/organizations/${organizationId}/chorus`, { enabled: true })).status).toBe(200);
    expect((await api.put(`/organizations/${organizationId}/limits`, { users: 1000 })).status).toBe(200);
    const configured = await api.put(`/organizations/${organizationId}/sso`, {
      issuer: idp.issuer,
      clientId: 'chorusAcme',
      clientSecret: 'idp-secret-scim',
      domains: ['acme.example'],
    });
    expect(configured.status).toBe(200);
    await proveSsoDomain(api, dns, organizationId, 'acme.example');
    token = (await api.post(`/organizations/${organizationId}/scim/tokens`, { name: 'Okta' })).body.token as string;
  }, 120_000);

  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await idp?.stop();
    await dns?.stop();
    await server?.stop();
  });

  /** The highest position the answers name; remembered for the next read of node A. */
  const lastPosition = (answers: readonly HttpResponse[]): string => {
    for (const answer of answers) {
      const position = BigInt(answer.headers.get('chorus-position') ?? '0');
      if (position > BigInt(writtenUpTo)) writtenUpTo = position.toString();
    }
    return writtenUpTo;
  };
  let writtenUpTo = '0';

  const organizationOnA = (position: string) =>
    api.request('GET', `/organizations/${organizationId}`, { headers: { 'chorus-min-position': position } });

  it('answers 201 to every one of 120 creates sent to both nodes at once, and makes each person a member', async () => {
    const people = Array.from({ length: 120 }, (_, index) => `person-${index}@acme.example`);

    const answers = await Promise.all(
      people.map((userName, index) =>
        scim(index % 2 === 0 ? nodeA : nodeB, 'POST', '/Users', { schemas: [USER], userName, active: true }),
      ),
    );

    expect(answers.filter((answer) => answer.status !== 201).map((answer) => answer.text)).toEqual([]);
    const listed = await scim(nodeB, 'GET', '/Users?count=200');
    expect(listed.body.totalResults).toBe(people.length);
    // Half the creates went to node B: node A is read naming their last position (docs/api.md, Reading your writes).
    const organization = await organizationOnA(lastPosition(answers));
    const emails = (organization.body.members as { email: string }[]).map((member) => member.email);
    for (const userName of people) expect(emails).toContain(userName);
  }, 120_000);

  it('keeps the users limit exact when both nodes race past it: exactly the room left is taken, the rest refused', async () => {
    const before = (await organizationOnA(writtenUpTo)).body.usage.users as number;
    expect((await api.put(`/organizations/${organizationId}/limits`, { users: before + 10 })).status).toBe(200);

    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        scim(index % 2 === 0 ? nodeA : nodeB, 'POST', '/Users', {
          schemas: [USER],
          userName: `late-${index}@acme.example`,
          active: true,
        }),
      ),
    );

    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(10);
    const refused = answers.filter((answer) => answer.status !== 201);
    expect(refused.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 409));
    expect(refused.every((answer) => /users limit/.test(answer.body.detail as string))).toBe(true);
    const after = (await organizationOnA(lastPosition(answers))).body.usage.users as number;
    expect(after).toBe(before + 10);
    expect((await api.put(`/organizations/${organizationId}/limits`, { users: 1000 })).status).toBe(200);
  }, 60_000);

  it('shows a deactivation on the other node to a read naming the write’s position', async () => {
    const created = await scim(nodeA, 'POST', '/Users', {
      schemas: [USER],
      userName: 'ada@acme.example',
      active: true,
    });
    expect(created.status).toBe(201);
    const deactivated = await scim(nodeA, 'PATCH', `/Users/${created.body.id as string}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.status).toBe(200);
    const position = deactivated.headers.get('chorus-position');
    expect(position).toMatch(/^\d+$/);

    const onB = httpClient(nodeB.baseUrl, {
      apiKey: await createApiKey(nodeB.app, ['organizations:read']),
    });
    const organization = await onB.request('GET', `/organizations/${organizationId}`, {
      headers: { 'chorus-min-position': position ?? '' },
    });

    expect(organization.status).toBe(200);
    const emails = (organization.body.members as { email: string }[]).map((member) => member.email);
    expect(emails).not.toContain('ada@acme.example');
  });
});
