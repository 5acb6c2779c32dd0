// API keys: revoked on one API node, refused on every node within API_KEY_CACHE_MS (5 s); bound to one
// organization, refused on every other and on calls about no organization. Two nodes share one DATA_DIR
// (the embedded store; the same holds for EventStoreDB), and the identity clock both pin decides the cache.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { API_KEY_CACHE_MS, ApiKeys } from '#api';
import { newCommandContext } from '#application';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { httpClient } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';

let dataDir: string;
let nodeA: AuthApp;
let nodeB: AuthApp;
let acme: string;
let globex: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-e2e-api-keys-'));
  nodeA = await startAuthApp({ DATA_DIR: dataDir, PROJECTIONS: 'inline' });
  nodeB = await startAuthApp({ DATA_DIR: dataDir, PROJECTIONS: 'inline' });
  const operator = httpClient(nodeA.baseUrl, {
    apiKey: await createApiKey(nodeA.app, ['organizations:read', 'organizations:write', 'audit:read'], 'operator'),
  });
  acme = await createOrganization(operator, { plan: { line: 'chorus', plan: 'teams' }, chorus: { enabled: true } });
  globex = await createOrganization(operator);
}, 60_000);

afterAll(async () => {
  for (const node of [nodeB, nodeA]) await node?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = () => newCommandContext('cli', { cliCommand: 'api-key:revoke' });
const keyIdOf = (key: string): string => key.split('_')[1] ?? '';

describe('revoking an API key', () => {
  it('refuses it at once on the node that revoked it, and on another node once its cache time has passed', async () => {
    const key = await createApiKey(nodeA.app, ['organizations:read'], 'to revoke');
    const onA = httpClient(nodeA.baseUrl, { apiKey: key });
    const onB = httpClient(nodeB.baseUrl, { apiKey: key });
    expect((await onA.get(`/organizations/${acme}`)).status).toBe(200);
    expect((await onB.get(`/organizations/${acme}`)).status).toBe(200);

    await nodeA.app.get(ApiKeys).revoke(keyIdOf(key), cli());

    const refusedOnA = await onA.get(`/organizations/${acme}`);
    expect(refusedOnA.status).toBe(401);
    expect(refusedOnA.body).toMatchObject({ code: 'UNAUTHENTICATED' });
    // Node B read the key a moment ago and trusts it for the stated bound, then reads its stream again.
    expect((await onB.get(`/organizations/${acme}`)).status).toBe(200);
    nodeB.clock.advance(API_KEY_CACHE_MS);
    expect((await onB.get(`/organizations/${acme}`)).status).toBe(401);
  });

  it('is refused by a node that had never seen the key before, at once', async () => {
    const key = await createApiKey(nodeA.app, ['organizations:read'], 'revoked unseen');
    await nodeA.app.get(ApiKeys).revoke(keyIdOf(key), cli());

    expect((await httpClient(nodeB.baseUrl, { apiKey: key }).get(`/organizations/${acme}`)).status).toBe(401);
  });

  it('is recorded once as ApiKeyRevoked in the key’s stream, by whom and when; revoking again changes nothing', async () => {
    const key = await createApiKey(nodeA.app, ['audit:read'], 'audited');
    const keys = nodeA.app.get(ApiKeys);

    const first = await keys.revoke(keyIdOf(key), cli());
    const again = await keys.revoke(keyIdOf(key), cli());

    expect(again).toMatchObject({ alreadyRevoked: true, revokedAt: first.revokedAt });
    const stream = await nodeA.store.readStream(`api-key-${keyIdOf(key)}`);
    expect(
      stream.found &&
        stream.events.map(({ type, metadata }) => ({ type, actor: metadata.actor, commandType: metadata.commandType })),
    ).toEqual([
      { type: 'ApiKeyCreated', actor: 'cli', commandType: 'CreateApiKey' },
      { type: 'ApiKeyRevoked', actor: 'cli', commandType: 'RevokeApiKey' },
    ]);
  });

  it('answers NOT_FOUND for a key id nobody has and VALIDATION_FAILED for one that is not a key id', async () => {
    const keys = nodeA.app.get(ApiKeys);

    await expect(keys.revoke('0123456789abcdef01234567', cli())).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(keys.revoke('chrs_not-an-id', cli())).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('an API key bound to one organization', () => {
  it('reads and changes its organization, and is refused 403 FORBIDDEN on every other and on calls about no organization', async () => {
    const bound = httpClient(nodeB.baseUrl, {
      apiKey: await createApiKey(
        nodeA.app,
        ['organizations:read', 'organizations:write', 'audit:read'],
        'acme only',
        acme,
      ),
    });

    expect((await bound.get(`/organizations/${acme}`)).status).toBe(200);
    expect((await bound.get(`/organizations/${acme}/history`)).status).toBe(200);
    expect(
      (await bound.post(`/organizations/${acme}/sites`, { name: 'Shop', hostname: 'shop.acme.example' })).status,
    ).toBe(201);
    for (const refused of [
      await bound.get(`/organizations/${globex}`),
      await bound.get(`/organizations/${globex}/history`),
      await bound.post(`/organizations/${globex}/plan`, { line: 'classic', plan: 'essential' }),
      await bound.get('/organizations/no-such-organization'),
      await bound.post('/organizations', { name: 'Made by a bound key' }),
      await bound.get('/audit/correlations/0f5b7c1e-3f55-4a53-9a57-3d4c1b2a9e10'),
    ]) {
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'FORBIDDEN' });
    }
  });

  it('cannot be made for an organization that does not exist, nor with an id that is not one', async () => {
    await expect(
      createApiKey(nodeA.app, ['organizations:read'], 'nowhere', 'no-such-organization'),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(createApiKey(nodeA.app, ['organizations:read'], 'bad id', 'Not An Id')).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});

describe('listing API keys', () => {
  it('shows every key with its scopes, organization, creation, revocation and last use, never a secret', async () => {
    const key = await createApiKey(nodeA.app, ['organizations:read'], 'listed', acme);
    await httpClient(nodeB.baseUrl, { apiKey: key }).get(`/organizations/${acme}`);
    await nodeA.app.get(ApiKeys).revoke(keyIdOf(key), cli());

    const listed = await nodeB.app.get(ApiKeys).list();

    expect(listed.find((entry) => entry.keyId === keyIdOf(key))).toEqual({
      keyId: keyIdOf(key),
      name: 'listed',
      scopes: ['organizations:read'],
      organizationId: acme,
      createdAt: expect.any(String),
      revokedAt: expect.any(String),
      lastUsedAt: expect.any(String),
    });
    expect(listed.map((entry) => entry.name)).toEqual(expect.arrayContaining(['operator', 'to revoke', 'acme only']));
    expect(JSON.stringify(listed)).not.toContain('sha256:');
  });

  it('records a key’s use at most once an hour, whichever node sees it', async () => {
    const key = await createApiKey(nodeA.app, ['organizations:read'], 'busy');
    const uses = async () => {
      const stream = await nodeA.store.readStream(`api-key-${keyIdOf(key)}`);
      return stream.found ? stream.events.filter((event) => event.type === 'ApiKeyUsed').length : 0;
    };

    for (let request = 0; request < 10; request += 1)
      await httpClient((request % 2 === 0 ? nodeA : nodeB).baseUrl, { apiKey: key }).get(`/organizations/${acme}`);
    expect(await uses()).toBe(1);
    nodeA.clock.advance(3_600_000);
    await httpClient(nodeA.baseUrl, { apiKey: key }).get(`/organizations/${acme}`);
    expect(await uses()).toBe(2);
  });
});
