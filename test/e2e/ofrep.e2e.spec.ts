// The product's services evaluate entitlements with OpenFeature's own SDK and its stock OFREP provider,
// against a started server: every flag key, a change seen right after its command, the protocol's errors as
// the SDK reports them, and an organization's flags out of reach of another organization's key.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { OpenFeature, type Client, type JsonValue } from '@openfeature/server-sdk';
import { ENTITLEMENT_KEYS } from '#domain';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';

let running: RunningApp;
let admin: HttpClient;
let acme: string;
let globex: string;

async function client(domain: string, key: string): Promise<Client> {
  await OpenFeature.setProviderAndWait(
    domain,
    new OFREPProvider({ baseUrl: running.baseUrl, headers: [['Authorization', `Bearer ${key}`]] }),
  );
  return OpenFeature.getClient(domain);
}

beforeAll(async () => {
  running = await startApp({ LOG_LEVEL: 'warn' });
  admin = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
  });
  acme = await createOrganization(admin, { plan: { line: 'classic', plan: 'enterprise' }, limits: { users: 3 } });
  globex = await createOrganization(admin, { plan: { line: 'chorus', plan: 'teams' }, chorus: { enabled: true } });
});

afterAll(async () => {
  await OpenFeature.close();
  await running.close();
});

describe('OFREP with the stock provider', () => {
  it('evaluates every flag key as the organization read model has it', async () => {
    const flags = await client('every-key', await createApiKey(running.app, ['entitlements:read']));
    const view = (await admin.get(`/organizations/${globex}`)).body;
    const context = { targetingKey: globex };
    for (const key of ENTITLEMENT_KEYS) {
      const details =
        key === 'plan'
          ? await flags.getStringDetails(key, 'x', context)
          : key.startsWith('limits.')
            ? await flags.getObjectDetails(key, {}, context)
            : await flags.getBooleanDetails(key, false, context);
      expect({ key, errorCode: details.errorCode, reason: details.reason }).toEqual({
        key,
        errorCode: undefined,
        reason: 'TARGETING_MATCH',
      });
      expect(details.flagMetadata.position).toEqual(expect.any(Number));
    }
    expect((await flags.getStringDetails('plan', 'x', context)).value).toBe('chorus:teams');
    expect((await flags.getBooleanDetails('chorus', false, context)).value).toBe(true);
    for (const [feature, on] of Object.entries(view.chorusFeatures as Record<string, boolean>)) {
      expect({ feature, on: (await flags.getBooleanDetails(`chorus.${feature}`, !on, context)).value }).toEqual({
        feature,
        on,
      });
    }
    expect((await flags.getBooleanDetails('multiSite', false, context)).value).toBe(view.features.multiSite);
  });

  it('sees a change right after the command that made it', async () => {
    const flags = await client('changes', await createApiKey(running.app, ['entitlements:read']));
    const users = async () =>
      (await flags.getObjectValue('limits.users', {}, { targetingKey: acme })) as Record<string, JsonValue>;
    expect(await users()).toEqual({ limit: 3, used: 0, remaining: 3, exceeded: false, exceededBy: 0, override: false });

    expect(
      (await admin.post(`/organizations/${acme}/members`, { email: 'ann@example.com', role: 'owner' })).status,
    ).toBe(201);
    expect(await users()).toMatchObject({ used: 1, remaining: 2 });

    expect((await admin.put(`/organizations/${acme}/limits`, { users: 1 })).status).toBe(200);
    expect(await users()).toMatchObject({ limit: 1, used: 1, remaining: 0, exceeded: false });
  });

  it("answers the protocol's errors, which the SDK reports with the default value", async () => {
    const flags = await client('errors', await createApiKey(running.app, ['entitlements:read']));
    const unknownFlag = await flags.getBooleanDetails('chorus.teleportation', false, { targetingKey: acme });
    expect({ value: unknownFlag.value, errorCode: unknownFlag.errorCode }).toEqual({
      value: false,
      errorCode: 'FLAG_NOT_FOUND',
    });
    expect((await flags.getBooleanDetails('chorus', true, {})).errorCode).toBe('TARGETING_KEY_MISSING');
    expect((await flags.getBooleanDetails('chorus', true, { targetingKey: 'no-such-organization' })).errorCode).toBe(
      'INVALID_CONTEXT',
    );
    expect((await flags.getStringDetails('chorus', 'x', { targetingKey: acme })).errorCode).toBe('TYPE_MISMATCH');
  });

  it("keeps an organization's flags from a key bound to another, with the same answer as for no organization", async () => {
    const flags = await client('bound', await createApiKey(running.app, ['entitlements:read'], 'acme only', acme));
    expect((await flags.getStringDetails('plan', 'x', { targetingKey: acme })).value).toBe('classic:enterprise');
    const elsewhere = await flags.getStringDetails('plan', 'x', { targetingKey: globex });
    expect({ value: elsewhere.value, errorCode: elsewhere.errorCode }).toEqual({
      value: 'x',
      errorCode: 'INVALID_CONTEXT',
    });

    const withoutScope = await client('no-scope', await createApiKey(running.app, ['organizations:read']));
    const refused = await withoutScope.getStringDetails('plan', 'x', { targetingKey: acme });
    expect(refused.value).toBe('x');
    expect(refused.errorCode).toBeDefined();
  });
});

describe('OFREP bulk evaluation', () => {
  it('answers every flag with an ETag that changes exactly when the entitlements do, and 304 to a matching If-None-Match', async () => {
    const api = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['entitlements:read']) });
    const body = { context: { targetingKey: acme } };
    expect((await admin.put(`/organizations/${acme}/limits`, { users: 5 })).status).toBe(200);
    const added = await admin.post(`/organizations/${acme}/members`, { email: 'bob@example.com', role: 'member' });
    const first = await api.post('/ofrep/v1/evaluate/flags', body);
    expect(first.status).toBe(200);
    expect((first.body.flags as { key: string }[]).map((flag) => flag.key)).toEqual(ENTITLEMENT_KEYS);
    const etag = first.headers.get('etag') as string;

    // A change that moves no flag: a member's role.
    expect(
      (await admin.request('PATCH', `/organizations/${acme}/members/${added.body.userId}`, { json: { role: 'admin' } }))
        .status,
    ).toBe(200);
    expect((await api.post('/ofrep/v1/evaluate/flags', body, { headers: { 'if-none-match': etag } })).status).toBe(304);

    expect((await admin.put(`/organizations/${acme}/limits`, { users: 6 })).status).toBe(200);
    const changed = await api.post('/ofrep/v1/evaluate/flags', body, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('refuses a malformed body with PARSE_ERROR and a missing targeting key with TARGETING_KEY_MISSING', async () => {
    const key = await createApiKey(running.app, ['entitlements:read']);
    const raw = await fetch(`${running.baseUrl}/ofrep/v1/evaluate/flags/plan`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"context":',
    });
    expect({ status: raw.status, body: await raw.json() }).toEqual({
      status: 400,
      body: { key: 'plan', errorCode: 'PARSE_ERROR', errorDetails: expect.any(String) },
    });
    const api = httpClient(running.baseUrl, { apiKey: key });
    const missing = await api.post('/ofrep/v1/evaluate/flags', { context: {} });
    expect({ status: missing.status, errorCode: missing.body.errorCode }).toEqual({
      status: 400,
      errorCode: 'TARGETING_KEY_MISSING',
    });
    expect(
      (await httpClient(running.baseUrl).post('/ofrep/v1/evaluate/flags', { context: { targetingKey: acme } })).status,
    ).toBe(401);
  });
});
