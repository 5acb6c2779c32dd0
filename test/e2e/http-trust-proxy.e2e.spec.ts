// TRUST_PROXY: per-address limits and the client address recorded for auditors come from
// request.ip, which believes X-Forwarded-For only from the proxies the setting names (none by
// default). A client on loopback forging the header must not get a fresh address per request.
import { afterEach, describe, expect, it } from '@jest/globals';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { createApiKey } from '../support/api-keys.js';
import { httpClient } from '../support/http-client.js';

/** The forgot-password limit: 10 requests per client address per 15 minutes (libs/identity). */
const forgotPerAddress = 10;

let app: AuthApp | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** POST /forgot `count` times from one browser on loopback, each claiming another client address. */
async function forgotWithForgedAddresses(running: AuthApp, count: number): Promise<number[]> {
  const browser = running.browser();
  await browser.open('/forgot');
  const statuses: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const forged = `198.51.100.${index + 1}`;
    statuses.push(
      (
        await browser.post(
          '/forgot',
          { email: `nobody${index}@example.com` },
          { headers: { 'x-forwarded-for': forged } },
        )
      ).status,
    );
  }
  return statuses;
}

/** The client address recorded in the metadata of an organization created with these headers. */
async function recordedClientIp(running: AuthApp, headers: Record<string, string>): Promise<unknown> {
  const api = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['organizations:write']) });
  const created = await api.post('/organizations', { name: 'Forwarded' }, { headers });
  expect(created.status).toBe(201);
  const stream = await running.store.readStream(`organization-${created.body.id as string}`);
  if (!stream.found) throw new Error('the organization was not recorded');
  return stream.events[0]?.metadata.clientIp;
}

describe('with no TRUST_PROXY (the default)', () => {
  it('counts forged X-Forwarded-For requests from loopback as the one address they come from', async () => {
    app = await startAuthApp();
    const statuses = await forgotWithForgedAddresses(app, forgotPerAddress + 1);
    expect(statuses.slice(0, forgotPerAddress)).toEqual(new Array(forgotPerAddress).fill(202));
    expect(statuses.at(-1)).toBe(429);
  });

  it('records the TCP peer as the client, not what X-Forwarded-For claims', async () => {
    app = await startAuthApp();
    expect(await recordedClientIp(app, { 'x-forwarded-for': '203.0.113.66' })).toBe('127.0.0.1');
  });
});

describe('with TRUST_PROXY=loopback (a reverse proxy on this host)', () => {
  it("takes the client's address from the proxy's X-Forwarded-For", async () => {
    app = await startAuthApp({ TRUST_PROXY: 'loopback' });
    const statuses = await forgotWithForgedAddresses(app, forgotPerAddress + 1);
    expect(statuses).toEqual(new Array(forgotPerAddress + 1).fill(202));
    expect(await recordedClientIp(app, { 'x-forwarded-for': '203.0.113.66' })).toBe('203.0.113.66');
  });

  it('ignores what the client itself put before the address the proxy appended', async () => {
    app = await startAuthApp({ TRUST_PROXY: 'loopback' });
    expect(await recordedClientIp(app, { 'x-forwarded-for': '10.9.8.7, 203.0.113.66' })).toBe('203.0.113.66');
  });
});
