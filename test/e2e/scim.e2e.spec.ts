// SCIM 2.0 provisioning (docs/directory.md) as identity providers do it: the request sequences Okta's and Microsoft
// Entra ID's documentation shows, sent as application/scim+json with a directory token, on two API nodes sharing one
// store. Acme's domain is verified first through a real DNS server on loopback, as in sso.e2e.spec.ts. Each guard
// meets the new way in: another organization's token, a revoked token (on the other node at once), a domain the
// organization has not verified, the users limit, the last owner, and the sessions of a deprovisioned account.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import { newCommandContext } from '#application';
import { DirectoryUsers, PersonalDataErasure } from '#api';
import { directoryStream, organizationStream, ssoSignOnStream } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { DnsServer, dnsServerMissing } from '../support/dns-server.js';
import { proveSsoDomain } from '../support/sso-domains.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { IdentityProvider, viaProvider } from '../support/identity-provider.js';

const password = 'correct-horse-battery-9';
const sharedSecret = 's'.repeat(48);
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE_USER = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

let dataDir: string;
let dns: DnsServer;
let idp: IdentityProvider;
let nodeA: AuthApp;
let nodeB: AuthApp;
let api: HttpClient;
let acme: string;
let globex: string;
let acmeToken: string;
let globexToken: string;

type Scim = (method: string, path: string, body?: unknown, token?: string) => Promise<HttpResponse>;

/** An identity provider's client: SCIM's media type, the organization's bearer token. */
const scimOn =
  (node: AuthApp): Scim =>
  (method, path, body, token = acmeToken) =>
    httpClient(node.baseUrl).request(method, `/scim/v2${path}`, {
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/scim+json',
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { raw: JSON.stringify(body) }),
    });
let scim: Scim;
let scimB: Scim;

async function members(organizationId: string): Promise<{ email: string; role: string; userId: string }[]> {
  return (await api.get(`/organizations/${organizationId}`)).body.members;
}

async function events(stream: string) {
  const read = await nodeA.store.readStream(stream);
  return read.found ? read.events : [];
}

async function enterpriseOrganization(name: string, owner: { userId: string; email: string }): Promise<string> {
  const id = await nodeA.createOrganization(name, owner);
  expect((await api.post(`/organizations/${id}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(200);
  return id;
}

async function verifyDomain(organizationId: string, domain: string): Promise<void> {
  const configured = await api.put(`/organizations/${organizationId}/sso`, {
    issuer: idp.issuer,
    clientId: 'chorusAcme',
    clientSecret: 'idp-secret-scim',
    domains: [domain],
  });
  expect(configured.status).toBe(200);
  await proveSsoDomain(api, dns, organizationId, domain);
}

/** Polls another process's answer: what is waited for is the store's delivery to that node, not a clock of ours. */
async function eventually(check: () => Promise<boolean>, timeoutMs = 3_000): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

const missing = dnsServerMissing();
if (missing !== undefined) throw new Error(missing);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-scim-'));
  dns = await DnsServer.start(['acme.example']);
  idp = await IdentityProvider.start();
  nodeA = await startAuthApp({
    DATA_DIR: dataDir,
    SESSION_SECRET: sharedSecret,
    DNS_SERVERS: dns.address,
    PROJECTIONS: 'inline',
  });
  nodeB = await startAuthApp({
    DATA_DIR: dataDir,
    SESSION_SECRET: sharedSecret,
    DNS_SERVERS: dns.address,
    PROJECTIONS: 'off',
  });
  api = httpClient(nodeA.baseUrl, {
    apiKey: await createApiKey(nodeA.app, ['organizations:read', 'organizations:write', 'audit:read']),
  });
  scim = scimOn(nodeA);
  scimB = scimOn(nodeB);
  const oliviaId = await nodeA.createUser({ email: 'olivia@acme.example', password });
  acme = await enterpriseOrganization('Acme', { userId: oliviaId, email: 'olivia@acme.example' });
  await verifyDomain(acme, 'acme.example');
  const gusId = await nodeA.createUser({ email: 'gus@globex.example', password });
  globex = await enterpriseOrganization('Globex', { userId: gusId, email: 'gus@globex.example' });
  acmeToken = (await api.post(`/organizations/${acme}/scim/tokens`, { name: 'Okta' })).body.token;
  globexToken = (await api.post(`/organizations/${globex}/scim/tokens`, { name: 'Entra ID' })).body.token;
}, 120_000);

afterAll(async () => {
  for (const node of [nodeB, nodeA]) await node?.close();
  await idp?.stop();
  await dns?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('directory tokens', () => {
  it('shows a token once, lists tokens without them, and refuses an organization without an enterprise plan', async () => {
    expect(acmeToken).toMatch(new RegExp(`^chscim_${acme}\\.[0-9a-f]{24}\\.[A-Za-z0-9_-]{43}$`));
    const listed = await api.get(`/organizations/${acme}/scim/tokens`);
    expect(listed.status).toBe(200);
    expect(listed.body.tokens).toEqual([expect.objectContaining({ name: 'Okta', revokedAt: null })]);
    expect(listed.text).not.toContain(acmeToken.split('.')[2]);

    const teams = await nodeA.createOrganization('Teams only', {
      userId: (await members(acme))[0]!.userId,
      email: 'olivia@acme.example',
    });
    const refused = await api.post(`/organizations/${teams}/scim/tokens`, { name: 'Okta' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'ENTERPRISE_PLAN_REQUIRED' });
    expect(await events(directoryStream(teams))).toEqual([]);
  });

  it('refuses no token, a made-up one and a wrong secret in SCIM’s error schema', async () => {
    const [, , secret = ''] = acmeToken.split('.');
    for (const token of ['', 'chrs_nothing', acmeToken.replace(secret, secret.split('').reverse().join(''))]) {
      const answer = await scim('GET', '/Users', undefined, token);
      expect(answer.status).toBe(401);
      expect(answer.headers.get('content-type')).toMatch(/^application\/scim\+json/);
      expect(answer.body).toMatchObject({ schemas: [ERROR], status: '401' });
    }
  });

  it('is refused on the other node at once once revoked', async () => {
    const made = await api.post(`/organizations/${acme}/scim/tokens`, { name: 'to revoke' });
    expect((await scimB('GET', '/Users', undefined, made.body.token)).status).toBe(200);

    expect((await api.delete(`/organizations/${acme}/scim/tokens/${made.body.id}`)).status).toBe(204);

    expect((await scimB('GET', '/Users', undefined, made.body.token)).status).toBe(401);
    expect((await api.delete(`/organizations/${globex}/scim/tokens/${made.body.id}`)).status).toBe(404);
  });
});

describe('discovery', () => {
  it('says what is supported, with SCIM’s media type', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true },
      bulk: { supported: false },
    });
    expect((await scim('GET', '/ResourceTypes')).body.Resources).toEqual([
      expect.objectContaining({ id: 'User', endpoint: '/Users', schema: USER }),
      expect.objectContaining({ id: 'Group', endpoint: '/Groups' }),
    ]);
    expect((await scim('GET', '/Schemas')).body.Resources[0]).toMatchObject({ id: USER });
    expect((await scim('GET', `/Schemas/${USER}`)).status).toBe(200);
  });
});

describe('Okta’s sequence', () => {
  let adaId: string;
  let resourceId: string;

  beforeAll(async () => {
    adaId = await nodeA.createUser({ email: 'ada@acme.example', password });
  });

  it('finds no user, creates one as a member, and reads it back', async () => {
    const search = await scim(
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "ada@acme.example"')}&startIndex=1&count=100`,
    );
    expect(search.body).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await scim('POST', '/Users', {
      schemas: [USER],
      userName: 'ada@acme.example',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ primary: true, value: 'ada@acme.example', type: 'work' }],
      displayName: 'Ada Lovelace',
      locale: 'en-US',
      externalId: '00u1abcd',
      groups: [],
      password: 'an-Okta-password-1',
      active: true,
    });
    expect(created.status).toBe(201);
    resourceId = created.body.id;
    expect(created.headers.get('location')).toMatch(new RegExp(`/scim/v2/Users/${resourceId}$`));
    expect(created.body).toMatchObject({
      userName: 'ada@acme.example',
      active: true,
      externalId: '00u1abcd',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      meta: { resourceType: 'User' },
    });
    expect(JSON.stringify(created.body)).not.toContain('an-Okta-password-1');
    // An existing account of the verified domain joins as itself.
    expect(await members(acme)).toContainEqual(
      expect.objectContaining({ userId: adaId, email: 'ada@acme.example', role: 'member' }),
    );
    expect((await events(organizationStream(acme))).at(-1)?.metadata.actor).toMatch(/^scim:[0-9a-f]{24}$/);

    expect((await scim('GET', `/Users/${resourceId}`)).body).toMatchObject({
      id: resourceId,
      userName: 'ada@acme.example',
    });
    expect(
      (await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "ADA@acme.example"')}`)).body,
    ).toMatchObject({ totalResults: 1 });
    expect(
      (await scim('GET', `/Users?filter=${encodeURIComponent('emails[type eq "work"].value eq "ADA@acme.example"')}`))
        .body,
    ).toMatchObject({ totalResults: 1 });
    expect(
      (await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "00u1abcd"')}`)).body.Resources,
    ).toEqual([expect.objectContaining({ id: resourceId })]);
    // The provider's own id is case-sensitive (RFC 7643 3.1).
    expect((await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "00U1ABCD"')}`)).body).toMatchObject({
      totalResults: 0,
      Resources: [],
    });
  });

  it('replaces the profile with PUT and answers the user', async () => {
    const answer = await scim('PUT', `/Users/${resourceId}`, {
      schemas: [USER],
      id: resourceId,
      userName: 'ada@acme.example',
      name: { givenName: 'Augusta Ada', familyName: 'King' },
      emails: [{ primary: true, value: 'ada@acme.example', type: 'work' }],
      active: true,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      name: { givenName: 'Augusta Ada', familyName: 'King' },
      meta: { version: 'W/"2"' },
    });
  });

  it('deactivates with a value object: the membership ends, and the account’s session on the other node within a second', async () => {
    const onB = nodeB.browser();
    await onB.open('/login');
    expect((await onB.post('/login', { username: 'ada@acme.example', password })).status).toBe(204);
    expect((await onB.get('/session')).status).toBe(200);

    const answer = await scim('PATCH', `/Users/${resourceId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: resourceId, active: false });
    expect((await members(acme)).map((member) => member.userId)).not.toContain(adaId);
    // Node B's clock is pinned: without the end followed from the log, its cached session would stay good.
    expect(await eventually(async () => (await onB.get('/session')).status === 401, 1_000)).toBe(true);
  });

  it('reactivates: a member again', async () => {
    const answer = await scim('PATCH', `/Users/${resourceId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect(answer.body).toMatchObject({ active: true });
    expect(await members(acme)).toContainEqual(expect.objectContaining({ userId: adaId, role: 'member' }));
  });
});

describe('Entra ID’s sequence', () => {
  let resourceId: string;
  const bob = {
    schemas: [USER, ENTERPRISE_USER],
    externalId: 'bob-object-id',
    userName: 'bob@acme.example',
    active: true,
    emails: [{ primary: true, type: 'work', value: 'bob@acme.example' }],
    meta: { resourceType: 'User' },
    name: { formatted: 'Bob Builder', familyName: 'Builder', givenName: 'Bob' },
    roles: [],
  };

  it('finds no user, creates one (no account yet: a member by reserved id), and finds it by userName and externalId', async () => {
    expect(
      (await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "bob@acme.example"')}`)).body.totalResults,
    ).toBe(0);
    const created = await scim('POST', '/Users', bob);
    expect(created.status).toBe(201);
    resourceId = created.body.id;
    expect(await members(acme)).toContainEqual(expect.objectContaining({ email: 'bob@acme.example', role: 'member' }));
    expect(
      (await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "bob-object-id"')}`)).body.Resources,
    ).toEqual([expect.objectContaining({ id: resourceId })]);
    expect(
      (await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "bob@acme.example"')}`)).body.Resources,
    ).toEqual([expect.objectContaining({ id: resourceId })]);
  });

  it('refuses the same userName again (409 uniqueness), and records nothing', async () => {
    const before = (await events(organizationStream(acme))).length;
    const again = await scim('POST', '/Users', { ...bob, externalId: 'another-object-id' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });
    expect(await events(organizationStream(acme))).toHaveLength(before);
  });

  it('updates multi-valued and single-valued attributes with Replace and a path', async () => {
    const multi = await scim('PATCH', `/Users/${resourceId}`, {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'bob.builder@acme.example' },
        { op: 'Replace', path: 'name.familyName', value: 'Baumeister' },
      ],
    });
    expect(multi.status).toBe(200);
    expect(multi.body).toMatchObject({
      emails: [{ value: 'bob.builder@acme.example', type: 'work' }],
      name: { familyName: 'Baumeister' },
    });

    const single = await scim('PATCH', `/Users/${resourceId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'userName', value: 'robert@acme.example' }],
    });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ id: resourceId, userName: 'robert@acme.example' });
    // Another address is another member.
    const emails = (await members(acme)).map((member) => member.email);
    expect(emails).toContain('robert@acme.example');
    expect(emails).not.toContain('bob@acme.example');
  });

  it('disables with the string "False", then deletes for good', async () => {
    const disabled = await scim('PATCH', `/Users/${resourceId}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(disabled.status).toBe(200);
    expect(disabled.body.active).toBe(false);
    expect((await members(acme)).map((member) => member.email)).not.toContain('robert@acme.example');

    expect((await scim('DELETE', `/Users/${resourceId}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${resourceId}`)).status).toBe(404);
  });
});

describe('one commit per command', () => {
  it('provisions a new person as a member in one commit of the store: reservation, membership, resource', async () => {
    const users = nodeA.app.get(DirectoryUsers);
    const context = newCommandContext(`scim:${acmeToken.split('.')[1] ?? ''}`);
    // The first new person may make the node's next keys: that is the key store's commit, not the command's.
    await users.provision(acme, { userName: 'warm-up@acme.example', active: true }, context);
    // The node's own background work (a checkpoint, a mail's claim) may write while the command does, alone or in the
    // command's group commit. A command that took two commits would show it in every try; noise shows in few.
    const tries: { commits: number; writes: number }[] = [];
    let created: { userId: string } | undefined;
    for (let attempt = 1; attempt <= 3 && created === undefined; attempt += 1) {
      const before = nodeA.store.commitStats?.();
      const provisioned = await users.provision(
        acme,
        { userName: `one-commit-${attempt}@acme.example`, active: true },
        context,
      );
      const after = nodeA.store.commitStats?.();
      const spent = {
        commits: (after?.commits ?? Number.NaN) - (before?.commits ?? Number.NaN),
        writes: (after?.writes ?? Number.NaN) - (before?.writes ?? Number.NaN),
      };
      tries.push(spent);
      if (spent.commits === 1 && spent.writes === 1) created = provisioned;
    }
    expect(tries).toContainEqual({ commits: 1, writes: 1 });
    if (created === undefined) throw new Error('no try measured one commit');
    const streams = new Set(
      (await nodeA.store.readAll({ fromPosition: 0n }))
        .filter((event) => event.metadata.correlationId === context.correlationId && event.revision >= 0n)
        .filter((event) => (event.data as { userId?: string }).userId === created.userId)
        .map((event) => event.streamId.split('-')[0]),
    );
    expect([...streams].sort()).toEqual(['directory', 'identity', 'organization']);
  });

  it('writes creates an identity provider sends at once together, each with its own events and metadata', async () => {
    const users = nodeA.app.get(DirectoryUsers);
    const contextOf = () => newCommandContext(`scim:${acmeToken.split('.')[1] ?? ''}`);
    await users.provision(acme, { userName: 'warm-up-together@acme.example', active: true }, contextOf());
    const contexts = Array.from({ length: 8 }, contextOf);
    const before = nodeA.store.commitStats?.();

    const created = await Promise.all(
      contexts.map((context, index) =>
        users.provision(acme, { userName: `together-${index}@acme.example`, active: true }, context),
      ),
    );

    // The first goes alone; those that queued behind it share the next append (without it: eight commits).
    const commits = (nodeA.store.commitStats?.().commits ?? Number.NaN) - (before?.commits ?? Number.NaN);
    expect(commits).toBeLessThanOrEqual(3);
    const log = await nodeA.store.readAll({ fromPosition: 0n });
    for (const [index, context] of contexts.entries()) {
      const own = log.filter((event) => event.metadata.correlationId === context.correlationId);
      expect(own.map((event) => event.streamId.split('-')[0])).toEqual(['identity', 'organization', 'directory']);
      expect(own.every((event) => (event.data as { userId?: string }).userId === created[index]?.userId)).toBe(true);
    }
    const emails = (await members(acme)).map((member) => member.email);
    expect(contexts.map((_, index) => `together-${index}@acme.example`).every((email) => emails.includes(email))).toBe(
      true,
    );
  });

  it('answers each create sent at once with the position of its own events, readable when it answers', async () => {
    const people = Array.from({ length: 6 }, (_, index) => `at-once-${index}@acme.example`);

    const answers = await Promise.all(
      people.map((userName) => scim('POST', '/Users', { schemas: [USER], userName, active: true })),
    );

    expect(answers.map((answer) => answer.status)).toEqual(people.map(() => 201));
    const directory = await events(directoryStream(acme));
    for (const answer of answers) {
      const own = directory.filter((event) => (event.data as { resourceId?: string }).resourceId === answer.body.id);
      // Whoever's turn wrote it, each answer names a position its own event has reached, and waited for it.
      expect(BigInt(answer.headers.get('chorus-position') ?? '-1')).toBeGreaterThanOrEqual(own.at(-1)?.position ?? 0n);
      expect(answer.headers.get('chorus-consistency')).toBe('committed');
    }
  });

  it('answers its own position to each create sent at once under the caller’s own correlation ids, one id sent twice', async () => {
    const people = Array.from({ length: 6 }, (_, index) => `sent-id-${index}@acme.example`);
    // As an identity provider names its requests; the last two share one id, as a caller reusing one would.
    const sentIds = people.map((_, index) => `okta-request-${Math.min(index, 4)}`);

    const answers = await Promise.all(
      people.map((userName, index) =>
        httpClient(nodeA.baseUrl).request('POST', '/scim/v2/Users', {
          headers: {
            authorization: `Bearer ${acmeToken}`,
            accept: 'application/scim+json',
            'content-type': 'application/scim+json',
            'x-correlation-id': sentIds[index] as string,
          },
          raw: JSON.stringify({ schemas: [USER], userName, active: true }),
        }),
      ),
    );

    expect(answers.map((answer) => answer.status)).toEqual(people.map(() => 201));
    const directory = await events(directoryStream(acme));
    for (const answer of answers) {
      const own = directory.find((event) => (event.data as { resourceId?: string }).resourceId === answer.body.id);
      // The events carry the id the caller sent, adopted behind the caller's name, and the answer finds them by it.
      expect(own?.metadata.correlationId).toBe(answer.headers.get('x-correlation-id'));
      expect(BigInt(answer.headers.get('chorus-position') ?? '-1')).toBeGreaterThanOrEqual(own?.position ?? 0n);
    }
  });
});

describe('guards', () => {
  it('refuses an address outside the organization’s verified domains (400 invalidValue) and records nothing', async () => {
    const before = (await events(organizationStream(acme))).length;
    const answer = await scim('POST', '/Users', { schemas: [USER], userName: 'mallory@globex.example', active: true });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ scimType: 'invalidValue' });
    expect(await events(organizationStream(acme))).toHaveLength(before);
  });

  it('keeps each organization’s directory to its own token', async () => {
    const carol = await scim('POST', '/Users', { schemas: [USER], userName: 'carol@acme.example', active: true });
    expect(carol.status).toBe(201);
    expect((await scim('GET', `/Users/${carol.body.id}`, undefined, globexToken)).status).toBe(404);
    expect(
      (
        await scim(
          'PATCH',
          `/Users/${carol.body.id}`,
          { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] },
          globexToken,
        )
      ).status,
    ).toBe(404);
    expect((await scim('DELETE', `/Users/${carol.body.id}`, undefined, globexToken)).status).toBe(404);
    const replaced = { schemas: [USER], userName: 'carol@acme.example', active: false };
    expect((await scim('PUT', `/Users/${carol.body.id}`, replaced, globexToken)).status).toBe(404);
    expect((await scim('GET', `/Users/${carol.body.id}`)).body).toMatchObject({
      userName: 'carol@acme.example',
      active: true,
    });
    expect((await scim('GET', '/Users', undefined, globexToken)).body.totalResults).toBe(0);
    // Globex's token names Globex; writing Acme's id into it is a made-up token.
    expect((await scim('GET', '/Users', undefined, globexToken.replace(globex, acme))).status).toBe(401);
  });

  it('refuses an unsupported filter (400 invalidFilter)', async () => {
    const answer = await scim('GET', `/Users?filter=${encodeURIComponent('name.familyName co "a"')}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ scimType: 'invalidFilter' });
  });

  it('holds the users limit: 409 in SCIM’s schema, in words', async () => {
    const count = (await members(acme)).length;
    expect((await api.put(`/organizations/${acme}/limits`, { users: count })).status).toBe(200);
    const answer = await scim('POST', '/Users', { schemas: [USER], userName: 'dave@acme.example', active: true });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ schemas: [ERROR], status: '409' });
    expect(answer.body.detail).toMatch(/users limit/);
    expect(
      (await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "dave@acme.example"')}`)).body.totalResults,
    ).toBe(0);
    expect((await api.put(`/organizations/${acme}/limits`, { users: null })).status).toBe(200);
  });

  it('never deprovisions the last owner (409 mutability)', async () => {
    const olivia = await scim('POST', '/Users', { schemas: [USER], userName: 'olivia@acme.example', active: true });
    expect(olivia.status).toBe(201);
    expect(await members(acme)).toContainEqual(
      expect.objectContaining({ email: 'olivia@acme.example', role: 'owner' }),
    );
    const answer = await scim('PATCH', `/Users/${olivia.body.id}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ scimType: 'mutability' });
    expect((await scim('GET', `/Users/${olivia.body.id}`)).body.active).toBe(true);
  });
});

describe('groups and roles', () => {
  const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
  const idOf = async (userName: string): Promise<string> =>
    (await scim('GET', `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`)).body.Resources[0].id;
  const roleOf = async (email: string): Promise<string | undefined> =>
    (await members(acme)).find((member) => member.email === email)?.role;
  let admins: string;
  let owners: string;

  it('takes a pushed group (Okta) without changing any role while no group is mapped', async () => {
    const created = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Chorus Admins',
      members: [{ value: await idOf('ada@acme.example'), display: 'ada@acme.example' }],
    });
    expect(created.status).toBe(201);
    admins = created.body.id;
    expect(created.body).toMatchObject({
      displayName: 'Chorus Admins',
      members: [{ value: await idOf('ada@acme.example') }],
    });
    expect(await roleOf('ada@acme.example')).toBe('member');
  });

  it('refuses a mapping that would remove the last owner, and changes nothing', async () => {
    const refused = await api.put(`/organizations/${acme}/scim/group-roles`, {
      'Chorus Admins': 'admin',
      'Chorus Owners': 'owner',
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'LAST_OWNER' });
    expect(await roleOf('ada@acme.example')).toBe('member');
    expect((await api.get(`/organizations/${acme}/scim/group-roles`)).body).toEqual({});
  });

  it('gives each provisioned member the strongest role of their mapped groups once mapped', async () => {
    const created = await scim('POST', '/Groups', {
      schemas: [GROUP],
      displayName: 'Chorus Owners',
      externalId: 'entra-group-1',
      members: [{ value: await idOf('olivia@acme.example') }],
    });
    owners = created.body.id;
    const mapped = await api.put(`/organizations/${acme}/scim/group-roles`, {
      'chorus admins': 'admin',
      'Chorus Owners': 'owner',
    });
    expect(mapped.status).toBe(200);
    expect([
      await roleOf('ada@acme.example'),
      await roleOf('olivia@acme.example'),
      await roleOf('carol@acme.example'),
    ]).toEqual(['admin', 'owner', 'member']);
    const history = (await events(organizationStream(acme))).filter((event) => event.type === 'MemberRoleChanged');
    // The mapping was the owner's change (here an operator's key), so the role changes are recorded as theirs.
    expect(history.at(-1)?.metadata.actor).toMatch(/^api-key:/);
  });

  it('follows Okta’s membership changes: add to members, remove by members[value eq]', async () => {
    const carol = await idOf('carol@acme.example');
    const ada = await idOf('ada@acme.example');
    expect(
      (
        await scim('PATCH', `/Groups/${admins}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'add', path: 'members', value: [{ value: carol, display: 'carol@acme.example' }] }],
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await scim('PATCH', `/Groups/${admins}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'remove', path: `members[value eq "${ada}"]` }],
        })
      ).status,
    ).toBe(204);
    expect([await roleOf('carol@acme.example'), await roleOf('ada@acme.example')]).toEqual(['admin', 'member']);
    expect((await events(organizationStream(acme))).at(-1)?.metadata.actor).toMatch(/^scim:/);
  });

  it('replaces a group whole with PUT (200, the group as replaced); roles follow, and the last owner still holds', async () => {
    const [carol, ada, olivia] = [
      await idOf('carol@acme.example'),
      await idOf('ada@acme.example'),
      await idOf('olivia@acme.example'),
    ];
    const both = await scim('PUT', `/Groups/${admins}`, {
      schemas: [GROUP],
      displayName: 'Chorus Admins',
      members: [{ value: carol }, { value: ada }],
    });
    expect(both.status).toBe(200);
    expect(both.body.members.map((member: { value: string }) => member.value).sort()).toEqual([carol, ada].sort());
    expect(await roleOf('ada@acme.example')).toBe('admin');
    expect(
      (
        await scim('PUT', `/Groups/${admins}`, {
          schemas: [GROUP],
          displayName: 'Chorus Admins',
          members: [{ value: carol }],
        })
      ).status,
    ).toBe(200);
    expect(await roleOf('ada@acme.example')).toBe('member');
    const emptied = await scim('PUT', `/Groups/${owners}`, {
      schemas: [GROUP],
      displayName: 'Chorus Owners',
      externalId: 'entra-group-1',
      members: [],
    });
    expect(emptied.body).toMatchObject({ schemas: [ERROR], scimType: 'mutability' });
    expect((await scim('GET', `/Groups/${owners}`)).body.members).toEqual([expect.objectContaining({ value: olivia })]);
  });

  it('refuses Entra ID’s removal of the last owner from the owners’ group (409 mutability)', async () => {
    const olivia = await idOf('olivia@acme.example');
    const answer = await scim('PATCH', `/Groups/${owners}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: olivia }] }],
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ schemas: [ERROR], scimType: 'mutability' });
    expect(await roleOf('olivia@acme.example')).toBe('owner');
    expect((await scim('GET', `/Groups/${owners}`)).body.members).toEqual([expect.objectContaining({ value: olivia })]);
    expect((await scim('DELETE', `/Groups/${owners}`)).status).toBe(409);
  });

  it('finds a group by displayName without its members, as Entra ID asks', async () => {
    const found = await scim(
      'GET',
      `/Groups?filter=${encodeURIComponent('displayName eq "chorus admins"')}&excludedAttributes=members`,
    );
    expect(found.body).toMatchObject({ totalResults: 1, Resources: [{ id: admins, displayName: 'Chorus Admins' }] });
    expect(found.body.Resources[0].members).toBeUndefined();
    expect(
      (await scim('GET', `/Groups?filter=${encodeURIComponent('externalId eq "entra-group-1"')}`)).body.Resources,
    ).toEqual([expect.objectContaining({ id: owners })]);
  });

  it('maps by name: a renamed group (Okta’s value object) gives no role until mapped again', async () => {
    expect(
      (
        await scim('PATCH', `/Groups/${admins}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', value: { id: admins, displayName: 'Chorus Administrators' } }],
        })
      ).status,
    ).toBe(204);
    expect(await roleOf('carol@acme.example')).toBe('member');
  });

  it('keeps groups to their own organization', async () => {
    expect((await scim('GET', '/Groups', undefined, globexToken)).body.totalResults).toBe(0);
    expect((await scim('GET', `/Groups/${admins}`, undefined, globexToken)).status).toBe(404);
    expect((await scim('DELETE', `/Groups/${admins}`, undefined, globexToken)).status).toBe(404);
    const before = (await scim('GET', `/Groups/${admins}`)).body;
    const carol = await idOf('carol@acme.example');
    const renamed = {
      schemas: [PATCH_OP],
      Operations: [
        { op: 'replace', value: { displayName: 'Owners' } },
        { op: 'Remove', path: 'members', value: [{ value: carol }] },
      ],
    };
    expect((await scim('PATCH', `/Groups/${admins}`, renamed, globexToken)).status).toBe(404);
    expect(
      (await scim('PUT', `/Groups/${admins}`, { schemas: [GROUP], displayName: 'Owners', members: [] }, globexToken))
        .status,
    ).toBe(404);
    expect((await scim('GET', `/Groups/${admins}`)).body).toEqual(before);
  });
});

describe('an organization an operator made, with no owner yet', () => {
  it('maps a group to admin, and to owner a group with no member yet: no owner there is removed', async () => {
    const created = await api.post('/organizations', { name: 'Initech' });
    expect(created.status).toBe(201);
    const initech: string = created.body.id;
    expect((await api.post(`/organizations/${initech}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(200);
    expect((await api.put(`/organizations/${initech}/chorus`, { enabled: true })).status).toBe(200);
    const made = await api.post(`/organizations/${initech}/scim/tokens`, { name: 'Okta' });
    expect(made.status).toBe(201);
    const token: string = made.body.token;
    const group = {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Chorus Owners',
      members: [],
    };
    const posted = await scim('POST', '/Groups', group, token);
    expect([posted.status, posted.body]).toEqual([201, expect.objectContaining({ displayName: 'Chorus Owners' })]);

    const admins = await api.put(`/organizations/${initech}/scim/group-roles`, { 'Chorus Admins': 'admin' });
    expect([admins.status, admins.body]).toEqual([200, { 'Chorus Admins': 'admin' }]);
    const owners = await api.put(`/organizations/${initech}/scim/group-roles`, {
      'Chorus Admins': 'admin',
      'Chorus Owners': 'owner',
    });
    expect([owners.status, owners.body]).toEqual([200, { 'Chorus Admins': 'admin', 'Chorus Owners': 'owner' }]);
    expect(await members(initech)).toEqual([]);
  });
});

describe('the history', () => {
  it('names the directory token that made each change, and the filter offers it by that name', async () => {
    const timeline = await api.get(`/organizations/${acme}/history/events?type=MemberAdded&limit=100`);
    const byDirectory = (timeline.body.entries as { actor: string; actorName: string }[]).filter((entry) =>
      entry.actor.startsWith('scim:'),
    );
    expect(byDirectory.length).toBeGreaterThan(0);
    expect(new Set(byDirectory.map((entry) => entry.actorName))).toEqual(new Set(['Directory (SCIM), token “Okta”']));
    const filters = await api.get(`/organizations/${acme}/history/filters`);
    expect(filters.body.actors).toContainEqual({
      actor: byDirectory[0]?.actor,
      name: 'Directory (SCIM), token “Okta”',
    });
  });
});

describe('erasure', () => {
  it('takes an erased person out of the directory’s answers; the address provisioned again is a new person', async () => {
    const created = await scim('POST', '/Users', {
      schemas: [USER],
      userName: 'erin@acme.example',
      externalId: 'erin-1',
      name: { givenName: 'Erin' },
      active: true,
    });
    expect(created.status).toBe(201);
    const erinId = (await members(acme)).find((member) => member.email === 'erin@acme.example')!.userId;

    await nodeA.app.get(PersonalDataErasure).erase(erinId, newCommandContext('cli'));

    expect((await scim('GET', `/Users/${created.body.id}`)).status).toBe(404);
    const listed = await scim('GET', '/Users?count=200');
    expect(listed.text).not.toContain('erin');
    expect(listed.text).not.toContain('Erin');
    for (const filter of [
      'userName eq "erin@acme.example"',
      'externalId eq "erin-1"',
      'emails.value eq "erin@acme.example"',
    ]) {
      expect((await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`)).body).toMatchObject({
        totalResults: 0,
        Resources: [],
      });
    }
    const again = await scim('POST', '/Users', {
      schemas: [USER],
      userName: 'erin@acme.example',
      externalId: 'erin-1',
      active: true,
    });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(created.body.id);
    expect((await members(acme)).find((member) => member.email === 'erin@acme.example')?.userId).not.toBe(erinId);
  });
});

describe('the request log', () => {
  it('keeps the last requests of each directory and how they ended, without a person’s data', async () => {
    type Logged = { method: string; path: string; status: number; tokenId: string; at: string };
    const logged = async (organizationId: string): Promise<Logged[]> =>
      (await api.get(`/organizations/${organizationId}/scim/requests`)).body.requests;
    expect(await eventually(async () => (await logged(acme)).some((entry) => entry.status === 409), 2_000)).toBe(true);
    const entries = await logged(acme);
    expect(entries.length).toBeLessThanOrEqual(100);
    expect(entries).toContainEqual(expect.objectContaining({ method: 'POST', path: '/scim/v2/Users', status: 201 }));
    expect(entries).toContainEqual(expect.objectContaining({ method: 'PATCH', status: 409 }));
    // Newest first: the request just made leads.
    expect((await scim('GET', '/Schemas')).status).toBe(200);
    expect(await eventually(async () => (await logged(acme))[0]?.path === '/scim/v2/Schemas', 2_000)).toBe(true);
    expect(JSON.stringify(entries)).not.toMatch(/@|filter|userName/);
    expect(JSON.stringify(await logged(globex))).not.toContain(acme);
  });
});

describe('parallel requests', () => {
  it('takes 20 creates at once from one provider: every one 201, every person a member, none left without their resource', async () => {
    const before = (await members(acme)).length;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        scim('POST', '/Users', {
          schemas: [USER],
          userName: `burst-${index}@acme.example`,
          externalId: `burst-${index}`,
          active: true,
        }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 201));
    expect((await members(acme)).length).toBe(before + 20);
    const listed = await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "burst-7"')}`);
    expect(listed.body.totalResults).toBe(1);
  });
});

describe('joining by verified domain', () => {
  const signIn = async (email: string) => {
    const browser = nodeA.browser();
    await browser.open('/login');
    expect((await browser.post('/login', { username: email, password })).status).toBe(204);
    return browser;
  };

  beforeAll(async () => {
    expect((await api.put(`/organizations/${acme}/sso/domains/acme.example/join`, { join: 'automatic' })).status).toBe(
      200,
    );
  });

  afterAll(async () => {
    await api.put(`/organizations/${acme}/sso/domains/acme.example/join`, { join: 'invitation' });
  });

  it('does not bring back a person the directory deactivated: they sign in, and join nothing until reactivated', async () => {
    const doraId = await nodeA.createUser({ email: 'dora@acme.example', password });
    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'dora@acme.example', active: true });
    expect(created.status).toBe(201);
    expect(
      (
        await scim('PATCH', `/Users/${created.body.id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', value: { active: false } }],
        })
      ).status,
    ).toBe(200);

    const browser = await signIn('dora@acme.example');

    expect((await browser.get('/session')).body.organizations).toEqual([]);
    expect((await members(acme)).map((member) => member.userId)).not.toContain(doraId);
    expect(
      (
        await scim('PATCH', `/Users/${created.body.id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', value: { active: true } }],
        })
      ).status,
    ).toBe(200);
    expect((await members(acme)).map((member) => member.userId)).toContain(doraId);
  });

  it('does not bring back a person the directory deleted, until the directory provisions them again', async () => {
    const eliId = await nodeA.createUser({ email: 'eli@acme.example', password });
    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'eli@acme.example', active: true });
    expect((await scim('DELETE', `/Users/${created.body.id}`)).status).toBe(204);

    await signIn('eli@acme.example');

    expect((await members(acme)).map((member) => member.userId)).not.toContain(eliId);
    expect((await scim('POST', '/Users', { schemas: [USER], userName: 'eli@acme.example', active: true })).status).toBe(
      201,
    );
    expect((await members(acme)).map((member) => member.userId)).toContain(eliId);
  });

  it('does not let single sign-on’s own provisioning bring back a person the directory deactivated', async () => {
    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'gil@acme.example', active: true });
    expect(
      (
        await scim('PATCH', `/Users/${created.body.id}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', value: { active: false } }],
        })
      ).status,
    ).toBe(200);
    idp.signsIn('gil@acme.example');

    const { answer } = await viaProvider(nodeA.browser(), `/auth/sso/${acme}`);

    expect(answer.location).toBe('/login?error=sso');
    expect((await members(acme)).map((member) => member.email)).not.toContain('gil@acme.example');
    expect((await events(ssoSignOnStream(acme))).at(-1)?.data).toMatchObject({ reason: 'deprovisioned' });
  });

  it('does not let single sign-on’s own provisioning bring back a person the directory deleted before they ever signed in', async () => {
    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'hal@acme.example', active: true });
    expect((await scim('DELETE', `/Users/${created.body.id}`)).status).toBe(204);
    idp.signsIn('hal@acme.example');

    const { answer } = await viaProvider(nodeA.browser(), `/auth/sso/${acme}`);

    expect(answer.location).toBe('/login?error=sso');
    expect((await members(acme)).map((member) => member.email)).not.toContain('hal@acme.example');
    expect((await events(ssoSignOnStream(acme))).at(-1)?.data).toMatchObject({ reason: 'deprovisioned' });
  });

  it('still lets in a person of the domain the directory never named', async () => {
    const finnId = await nodeA.createUser({ email: 'finn@acme.example', password });
    await signIn('finn@acme.example');
    expect((await members(acme)).map((member) => member.userId)).toContain(finnId);
  });
});

describe('a person waiting for their second step', () => {
  it('is not let in by passing it once the directory deactivated them: the half-open session ended with the others', async () => {
    const kitId = await nodeA.createUser({ email: 'kit@acme.example', password });
    const provisioned = await scim('POST', '/Users', { schemas: [USER], userName: 'kit@acme.example', active: true });
    expect(provisioned.status).toBe(201);
    expect((await members(acme)).map((member) => member.userId)).toContain(kitId);
    const first = nodeA.browser();
    await first.open('/login');
    expect((await first.post('/login', { username: 'kit@acme.example', password })).status).toBe(204);
    const started = await first.post('/account/two-step/authenticator-app');
    const codeNow = (): Promise<string> =>
      generate({ secret: started.body.secret as string, epoch: Math.floor(nodeA.clock.now().getTime() / 1000) });
    const enrolled = await first.request('PUT', '/account/two-step/authenticator-app', {
      json: { setup: started.body.setup, code: await codeNow(), password },
    });
    expect(enrolled.status).toBe(200);
    nodeA.clock.advance(30_000);
    const waiting = nodeA.browser();
    await waiting.open('/login');
    expect((await waiting.post('/login', { username: 'kit@acme.example', password })).status).toBe(204);
    expect((await waiting.get('/session/second-step')).body).toMatchObject({ awaiting: 'second-step' });

    const deactivate = { schemas: [PATCH_OP], Operations: [{ op: 'replace', value: { active: false } }] };
    expect((await scim('PATCH', `/Users/${provisioned.body.id as string}`, deactivate)).status).toBe(200);

    expect((await waiting.post('/session/second-step/code', { code: await codeNow() })).status).toBe(401);
    expect((await waiting.get('/session')).status).toBe(401);
  });
});
