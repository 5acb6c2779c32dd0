// Erasure across nodes on PostgreSQL (docs/privacy.md): two API nodes sharing nothing but the database. A person
// erased through node A reads as erased on node B once B's cached key has expired (5 s, on B's injectable clock),
// in B's history and B's own read models; and the keys' table holds no copy of the key.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { KEY_CACHE_MS } from '#application';
import { READ_MODELS, type ReadModels } from '#read-models';
import { PersonalDataErasure } from '#api';
import { startPostgresServer, type PostgresServer } from '../../libs/event-store/src/testing/postgres-server.js';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { httpClient, type HttpClient } from '../support/http-client.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`PostgreSQL erasure suite SKIPPED: ${started.skip}.\n`);

const password = 'correct horse battery staple';
const member = 'kept.apart@postgres.example';

(server === undefined ? describe.skip : describe)('erasure on PostgreSQL, two nodes', () => {
  let databaseUrl: string;
  let nodeA: AuthApp;
  let nodeB: AuthApp;
  let onB: HttpClient;
  let organizationId: string;

  beforeAll(async () => {
    databaseUrl = await (server as PostgresServer).createDatabase('chorus_erasure');
    nodeA = await startAuthApp({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
    nodeB = await startAuthApp({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
    const ownerId = await nodeA.createUser({ email: 'owner@postgres.example', password });
    organizationId = await nodeA.createOrganization('Two Nodes Ltd', {
      userId: ownerId,
      email: 'owner@postgres.example',
    });
    await nodeA.createUser({ email: member, password });
    const onA = httpClient(nodeA.baseUrl, { apiKey: await createApiKey(nodeA.app, ['organizations:write']) });
    const added = await onA.post(`/organizations/${organizationId}/members`, { email: member, role: 'admin' });
    expect(added.status).toBe(201);
    onB = httpClient(nodeB.baseUrl, { apiKey: await createApiKey(nodeB.app, ['organizations:read', 'audit:read']) });
    await nodeB.app.get<ReadModels>(READ_MODELS).waitForPosition(BigInt(added.body.position), 5_000);
    expect((await onB.get(`/organizations/${organizationId}/history/export?format=jsonl`)).text).toContain(member);
  }, 120_000);

  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await server?.stop();
  });

  it('shows the person erased on the other node once its cached key has expired, and never again', async () => {
    const erasure = nodeA.app.get(PersonalDataErasure);
    const userId = (await erasure.personOf(member)) ?? '';
    const { position } = await erasure.erase(userId, {
      actor: 'cli',
      correlationId: 'erase',
      causationId: 'erase',
      origin: {},
    });
    await nodeB.app.get<ReadModels>(READ_MODELS).waitForPosition(position ?? 0n, 5_000);
    // Node B still holds the key it used a moment ago, for at most KEY_CACHE_MS.
    expect((await onB.get(`/organizations/${organizationId}/history/export?format=jsonl`)).text).toContain(member);
    nodeB.clock.advance(KEY_CACHE_MS);
    const history = (await onB.get(`/organizations/${organizationId}/history/export?format=jsonl`)).text;
    expect(history).not.toContain(member);
    expect(history).toMatch(/Erased person [0-9a-f]{4}/);
    const model = await onB.get(`/organizations/${organizationId}?minPosition=${position}`);
    expect(model.status).toBe(200);
    expect(model.text).not.toContain(member);
    const security = await onB.get(`/organizations/${organizationId}/history/sign-in-security`);
    expect(security.text).not.toContain(member);
  });

  it("leaves no copy of the key in the keys' table", async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ key: Buffer | null; erased_at: Date | null }>(
        "SELECT key, erased_at FROM personal_keys WHERE subject LIKE 'person:%' AND erased_at IS NOT NULL",
      );
      expect(rows).toEqual([{ key: null, erased_at: expect.any(Date) }]);
    } finally {
      await client.end();
    }
  });
});
