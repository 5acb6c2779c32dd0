// `chorus user:erase` (docs/privacy.md) from another process on the server's store, as an operator runs it: refused
// without --yes, and afterwards the running server shows the person as erased once its cached key has expired.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KEY_CACHE_MS } from '#application';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { ensureCliBuilt, runChorus } from '../support/chorus-cli.js';
import { httpClient, type HttpClient } from '../support/http-client.js';

const password = 'correct horse battery staple';
const member = 'erased.by.operator@cli.example';
let app: AuthApp;
let api: HttpClient;
let organizationId: string;

beforeAll(async () => {
  ensureCliBuilt();
  app = await startAuthApp();
  api = httpClient(app.baseUrl, {
    apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write', 'audit:read']),
  });
  const ownerId = await app.createUser({ email: 'owner@cli.example', password });
  organizationId = await app.createOrganization('Operated Ltd', { userId: ownerId, email: 'owner@cli.example' });
  expect((await api.post(`/organizations/${organizationId}/members`, { email: member, role: 'member' })).status).toBe(
    201,
  );
}, 60_000);

afterAll(async () => {
  await app.close();
});

const history = async (): Promise<string> =>
  (await api.get(`/organizations/${organizationId}/history/export?format=jsonl`)).text;

describe('chorus user:erase', () => {
  it('refuses without --yes, and an address nobody has', async () => {
    const unconfirmed = await runChorus(['user:erase', member], { DATA_DIR: app.dataDir });
    expect({ code: unconfirmed.code, stderr: unconfirmed.stderr }).toEqual({
      code: 2,
      stderr: expect.stringContaining('add --yes to confirm'),
    });
    const nobody = await runChorus(['user:erase', 'nobody@cli.example', '--yes'], { DATA_DIR: app.dataDir });
    expect({ code: nobody.code, stderr: nobody.stderr }).toEqual({
      code: 1,
      stderr: expect.stringContaining('NOT_FOUND'),
    });
    expect(await history()).toContain(member);
  });

  it('erases the person; the running server shows them erased once its cached key has expired', async () => {
    expect(await history()).toContain(member);
    const erased = await runChorus(['user:erase', member, '--yes', '--json'], { DATA_DIR: app.dataDir });
    expect(erased.code).toBe(0);
    expect(JSON.parse(erased.stdout)).toMatchObject({ userId: expect.any(String), organizationIds: [organizationId] });
    app.clock.advance(KEY_CACHE_MS);
    const shown = await history();
    expect(shown).not.toContain(member);
    expect(shown).toMatch(/Erased person [0-9a-f]{4}/);
  });
});
