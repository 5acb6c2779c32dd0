// The service on the PostgreSQL event store (DATABASE_URL), against a real PostgreSQL: a throw-away cluster
// from Debian's binaries, else skipped with one line saying why. Commands race on the database's checks,
// and a second process on the same database (an empty DATA_DIR of its own) rebuilds its read models from it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startPostgresServer, type PostgresServer } from '../../libs/event-store/src/testing/postgres-server.js';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization, organizationEvents } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`PostgreSQL e2e suite SKIPPED: ${started.skip}.\n`);

const CALLS = 50;
const LIMIT = 5;

(server === undefined ? describe.skip : describe)('Chorus on the PostgreSQL event store', () => {
  let databaseUrl = '';
  let running: RunningApp;
  let api: HttpClient;

  beforeAll(async () => {
    databaseUrl = await (server as PostgresServer).createDatabase('chorus_e2e');
    running = await startApp({ LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl });
    api = httpClient(running.baseUrl, {
      apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
    });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await server?.stop();
  });

  it(`${CALLS} concurrent adds at a limit of ${LIMIT}: exactly ${LIMIT}, and another node on the same database sees them`, async () => {
    const id = await createOrganization(api, {
      plan: { line: 'classic', plan: 'enterprise' },
      limits: { users: LIMIT },
    });

    const responses = await Promise.all(
      Array.from({ length: CALLS }, (_, index) =>
        api.post(`/organizations/${id}/members`, { email: `member-${index}@example.com`, role: 'member' }),
      ),
    );

    expect(responses.filter((response) => response.status === 201)).toHaveLength(LIMIT);
    expect(
      responses.filter((response) => response.status === 409 && response.body?.code === 'LIMIT_EXCEEDED'),
    ).toHaveLength(CALLS - LIMIT);
    expect((await organizationEvents(running.store, id)).filter((event) => event.type === 'MemberAdded')).toHaveLength(
      LIMIT,
    );

    // A second node: its own empty DATA_DIR, the same log. Its read models come from PostgreSQL alone.
    const other = await startApp({ LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl });
    try {
      expect(await other.store.storeId()).toBe(await running.store.storeId());
      const otherApi = httpClient(other.baseUrl, { apiKey: await createApiKey(other.app, ['organizations:read']) });
      const membersOf = (body: unknown) =>
        ((body as { members?: Array<{ email?: string }> } | undefined)?.members ?? []).map((member) => member.email);
      const here = membersOf((await api.get(`/organizations/${id}`)).body);
      expect(here.filter((email) => email?.startsWith('member-'))).toHaveLength(LIMIT);
      let there: Array<string | undefined> = [];
      for (let attempt = 0; attempt < 100 && there.length !== here.length; attempt += 1) {
        const response = await otherApi.get(`/organizations/${id}`);
        there = response.status === 200 ? membersOf(response.body) : [];
        if (there.length !== here.length) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(there.sort()).toEqual(here.sort());
    } finally {
      await other.close();
    }
  }, 120_000);
});
