// An organization's owner chooses the SSO issuer, so the server's calls to it are an attack surface: a
// provider that turns hostile after its settings were saved (a body of hundreds of megabytes, errors for
// a flood of anonymous sign-on starts), and an issuer field used to probe this server's network.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ScriptedProvider } from '../../libs/identity/src/testing/scripted-provider.js';
import { createApiKey } from '../support/api-keys.js';
import { startAuthApp, type AuthApp } from '../support/auth-app.js';
import { Browser } from '../support/browser.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { startApp } from '../support/start-app.js';

const discoveryPath = '/.well-known/openid-configuration';
const ssoFailed = '/login?error=sso';
const hour = 3_600_000;
const sso = (issuer: string, domain: string) => ({
  issuer,
  clientId: 'chorus',
  clientSecret: `secret-${randomBytes(8).toString('hex')}`,
  domains: [domain],
});

let app: AuthApp;
let api: HttpClient;
let ownerId: string;

async function enterpriseOrganization(name: string): Promise<string> {
  const id = await app.createOrganization(name, { userId: ownerId, email: 'olivia@acme.example' });
  expect((await api.post(`/organizations/${id}/plan`, { line: 'chorus', plan: 'enterprise' })).status).toBe(200);
  return id;
}

/** An organization whose issuer served a good discovery document when its SSO was saved. */
async function configuredAgainst(provider: ScriptedProvider, name: string): Promise<string> {
  const organization = await enterpriseOrganization(name);
  provider.answers.set(discoveryPath, { kind: 'json', body: ScriptedProvider.discoveryDocument(provider.url) });
  expect(
    (await api.put(`/organizations/${organization}/sso`, sso(provider.url, `${name.toLowerCase()}.example`))).status,
  ).toBe(200);
  return organization;
}

beforeAll(async () => {
  app = await startAuthApp();
  api = httpClient(app.baseUrl, { apiKey: await createApiKey(app.app, ['organizations:read', 'organizations:write']) });
  ownerId = await app.createUser({ email: 'olivia@acme.example', password: 'correct-horse-battery-9' });
});
afterAll(() => app.close());

describe('a provider that turns hostile after its settings were saved', () => {
  let provider: ScriptedProvider;
  beforeAll(async () => {
    provider = await ScriptedProvider.start();
  });
  afterAll(() => provider.stop());

  it('serving 300 MB for discovery: sign-ons fail at once, memory stays put, /health/live keeps answering', async () => {
    const organization = await configuredAgainst(provider, 'Huge');
    provider.answers.set(discoveryPath, { kind: 'huge', bytes: 300 * 1024 * 1024 });
    provider.bytesSent = 0;
    // The configuration saved an hour ago is discovered again.
    app.clock.advance(hour + 1);
    const rssBefore = process.memoryUsage().rss;
    let signingOn = true;
    const signOns = Promise.all(
      Array.from({ length: 3 }, () => new Browser(app.baseUrl).open(`/auth/sso/${organization}`)),
    ).finally(() => (signingOn = false));
    const probes: { status: number; body: unknown }[] = [];
    while (signingOn || probes.length === 0) {
      const live = await fetch(`${app.baseUrl}/health/live`, { signal: AbortSignal.timeout(2_000) });
      probes.push({ status: live.status, body: await live.json() });
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect((await signOns).map((answer) => answer.location)).toEqual([ssoFailed, ssoFailed, ssoFailed]);
    expect(probes.every((probe) => probe.status === 200 && JSON.stringify(probe.body) === '{"live":true}')).toBe(true);
    expect(provider.bytesSent).toBeLessThan(16 * 1024 * 1024);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect(
      app.logs.some(
        (line) => line.reason === 'discovery-failed' && String(line.detail).includes('larger than 65536 bytes'),
      ),
    ).toBe(true);
  }, 60_000);

  it('failing discovery: a flood of anonymous sign-on starts reaches the issuer once a minute', async () => {
    const organization = await configuredAgainst(provider, 'Flood');
    provider.answers.set(discoveryPath, { kind: 'status', status: 500 });
    app.clock.advance(hour + 1);
    const before = provider.requestsTo(discoveryPath);
    const start = () => new Browser(app.baseUrl).open(`/auth/sso/${organization}`);
    const concurrent = await Promise.all(Array.from({ length: 40 }, start));
    const oneByOne = [];
    for (let attempt = 0; attempt < 40; attempt += 1) oneByOne.push(await start());
    expect([...concurrent, ...oneByOne].every((answer) => answer.location === ssoFailed)).toBe(true);
    expect(provider.requestsTo(discoveryPath) - before).toBe(1);
    app.clock.advance(61_000);
    expect((await start()).location).toBe(ssoFailed);
    expect(provider.requestsTo(discoveryPath) - before).toBe(2);
  });
});

describe('saving an issuer that cannot be used', () => {
  let provider: ScriptedProvider;
  beforeAll(async () => {
    provider = await ScriptedProvider.start();
  });
  afterAll(() => provider.stop());

  it('answers one 422, the same words whatever the reason (closed port, TLS, no document, a bad one, too large); the reason is logged', async () => {
    const organization = await enterpriseOrganization('Probe');
    provider.answers.set('/bad/.well-known/openid-configuration', {
      kind: 'json',
      body: { issuer: 'https://someone-else.example' },
    });
    provider.answers.set('/huge/.well-known/openid-configuration', { kind: 'huge', bytes: 10 * 1024 * 1024 });
    const issuers = [
      'http://127.0.0.1:9/closed',
      `https://127.0.0.1:${provider.port}/plain-http-behind`,
      `${provider.url}/missing`,
      `${provider.url}/bad`,
      `${provider.url}/huge`,
    ];
    const answers = [];
    for (const issuer of issuers)
      answers.push(await api.put(`/organizations/${organization}/sso`, sso(issuer, 'probe.example')));
    expect(answers.map((answer) => answer.status)).toEqual([422, 422, 422, 422, 422]);
    const words = new Set(
      answers.map((answer) => JSON.stringify({ ...answer.body, issuer: undefined, correlationId: undefined })),
    );
    expect(words.size).toBe(1);
    expect([...words][0]).not.toMatch(/ECONN|EPROTO|ssl|TLS|port|9|404|larger|issuer does not match/i);
    const logged = app.logs
      .filter((line) => line.msg === 'SSO settings refused: OpenID Connect discovery failed')
      .map((line) => String(line.detail));
    expect(logged.join('\n')).toMatch(/ECONNREFUSED/);
    expect(logged).toHaveLength(issuers.length);
  });
});

describe('in production, the issuer cannot reach this server or its network', () => {
  it('refuses loopback and private issuers before connecting, with the same answer as any unusable issuer', async () => {
    const listener = await ScriptedProvider.start();
    const production = await startApp({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      PUBLIC_URL: 'https://chorus.example',
      SSO_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    });
    try {
      const operator = httpClient(production.baseUrl, {
        apiKey: await createApiKey(production.app, ['organizations:write']),
      });
      const created = await operator.post('/organizations', { name: 'Production' });
      await operator.post(`/organizations/${created.body.id}/plan`, { line: 'classic', plan: 'enterprise' });
      const port = listener.port;
      const issuers = [
        `https://localhost:${port}`,
        `https://127.0.0.1:${port}`,
        `https://[::1]:${port}`,
        `https://[::ffff:127.0.0.1]:${port}`,
        `https://[::ffff:7f00:1]:${port}`,
        'https://10.0.0.1',
        'https://169.254.169.254/latest/meta-data',
        `https://127.0.0.1:${production.baseUrl.split(':').at(-1) ?? ''}`,
      ];
      const answers = [];
      for (const issuer of issuers)
        answers.push(await operator.put(`/organizations/${created.body.id}/sso`, sso(issuer, 'prod.example')));
      expect(answers.map((answer) => answer.body.code)).toEqual(issuers.map(() => 'SSO_DISCOVERY_FAILED'));
      expect(new Set(answers.map((answer) => answer.body.detail)).size).toBe(1);
      expect(answers.map((answer) => answer.text).join('\n')).not.toMatch(/ECONNREFUSED|bad port|not a public address/);
      expect(listener.connections).toBe(0);
      expect(production.logs.filter((line) => String(line.detail).includes('not a public address'))).toHaveLength(
        issuers.length,
      );
    } finally {
      await production.close();
      await listener.stop();
    }
  });
});
