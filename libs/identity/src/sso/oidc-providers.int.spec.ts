import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import * as oidc from 'openid-client';
import { ManualClock } from '../clock.js';
import { LoopbackNetwork, ScriptedProvider, tableResolver } from '../testing/scripted-provider.js';
import { OidcProviders } from './oidc-providers.js';

const discoveryPath = '/.well-known/openid-configuration';
const client = { clientId: 'chorus', clientSecret: 'not-a-real-secret' };

/**
 * The fetch a configuration makes its calls with: the very one openid-client uses for the JWKS and the token endpoint.
 */
function callsOf(configuration: oidc.Configuration): NonNullable<oidc.Configuration[typeof oidc.customFetch]> {
  const fetch = configuration[oidc.customFetch];
  if (fetch === undefined) throw new Error('The configuration has no customFetch');
  return fetch;
}

let provider: ScriptedProvider;

beforeAll(async () => {
  provider = await ScriptedProvider.start();
});
afterAll(() => provider.stop());
beforeEach(() => {
  provider.answers.clear();
  provider.requests.length = 0;
  provider.connections = 0;
});

describe('in production, the endpoints a discovery document names', () => {
  // No public network here: made-up names resolve to made-up public addresses, and every connection the
  // checks let through lands on the scripted provider. The scheme is http only to spare a TLS certificate.
  const issuer = () => `http://idp.example:${provider.port}`;
  const providers = () =>
    new OidcProviders({
      allowHttpIssuers: true,
      publicAddressesOnly: true,
      clock: new ManualClock(),
      lookup: tableResolver({
        'idp.example': ['203.0.113.10'],
        'internal.idp.example': ['10.0.0.7'],
        'metadata.idp.example': ['fd00:ec2::254'],
      }),
      agent: new LoopbackNetwork(provider.port),
    });

  it('are accepted when they are all at public addresses (the issuer is reached through the test network)', async () => {
    provider.answers.set(discoveryPath, { kind: 'json', body: ScriptedProvider.discoveryDocument(issuer()) });
    const configuration = await providers().discover('acme', { issuer: issuer(), ...client });
    expect(configuration.serverMetadata().jwks_uri).toBe(`${issuer()}/jwks`);
  });

  it.each([
    [
      'a jwks_uri whose name resolves to 10.0.0.7',
      () => ({ jwks_uri: `http://internal.idp.example:${provider.port}/jwks` }),
      '10.0.0.7',
    ],
    [
      'a jwks_uri whose name resolves to a unique-local address',
      () => ({ jwks_uri: `http://metadata.idp.example:${provider.port}/jwks` }),
      'fd00:ec2::254',
    ],
    [
      'a token_endpoint at 127.0.0.1',
      () => ({ token_endpoint: `http://127.0.0.1:${provider.port}/token` }),
      '127.0.0.1',
    ],
    [
      'a token_endpoint at an IPv4-mapped 169.254.169.254',
      () => ({ token_endpoint: 'http://[::ffff:a9fe:a9fe]/token' }),
      '::ffff:a9fe:a9fe',
    ],
    ['a userinfo_endpoint at 192.168.0.1', () => ({ userinfo_endpoint: 'http://192.168.0.1/userinfo' }), '192.168.0.1'],
  ])('are refused when the document names %s', async (_case, endpoints, address) => {
    provider.answers.set(discoveryPath, {
      kind: 'json',
      body: ScriptedProvider.discoveryDocument(issuer(), issuer(), endpoints()),
    });
    const refusal = await providers()
      .discover('acme', { issuer: issuer(), ...client })
      .catch((error: unknown) => error);
    expect(refusal).toMatchObject({
      reason: 'discovery-failed',
      message: expect.stringMatching(/not a public address$/) as unknown,
    });
    expect((refusal as Error).message).toContain(address);
    expect(provider.requests.map((request) => request.path)).toEqual([discoveryPath]);
  });
});

describe('discovery outcomes, per organization', () => {
  const issuer = () => provider.url;
  let clock: ManualClock;
  let providers: OidcProviders;
  beforeEach(() => {
    clock = new ManualClock();
    providers = new OidcProviders({ allowHttpIssuers: true, publicAddressesOnly: false, clock });
  });
  const discover = (options = {}) => providers.discover('acme', { issuer: issuer(), ...client }, options);

  it('asks a failing issuer once a minute, however many sign-ons start at once or one after another', async () => {
    provider.answers.set(discoveryPath, { kind: 'status', status: 400 });
    const outcomes = await Promise.allSettled(Array.from({ length: 25 }, () => discover()));
    expect(outcomes.every((outcome) => outcome.status === 'rejected')).toBe(true);
    for (let attempt = 0; attempt < 25; attempt += 1)
      await expect(discover()).rejects.toMatchObject({ reason: 'discovery-failed' });
    clock.advance(59_000);
    await expect(discover()).rejects.toMatchObject({ reason: 'discovery-failed' });
    expect(provider.requestsTo(discoveryPath)).toBe(1);
    clock.advance(2_000);
    await expect(discover()).rejects.toMatchObject({ reason: 'discovery-failed' });
    expect(provider.requestsTo(discoveryPath)).toBe(2);
  });

  it('lets an owner saving the settings retry a failure, not more than once every 5 seconds', async () => {
    provider.answers.set(discoveryPath, { kind: 'status', status: 500 });
    await expect(discover()).rejects.toMatchObject({ reason: 'discovery-failed' });
    await expect(discover({ retryFailed: true })).rejects.toMatchObject({ reason: 'discovery-failed' });
    expect(provider.requestsTo(discoveryPath)).toBe(1);
    provider.answers.set(discoveryPath, { kind: 'json', body: ScriptedProvider.discoveryDocument(issuer()) });
    clock.advance(5_000);
    await expect(discover({ retryFailed: true })).resolves.toBeDefined();
    expect(provider.requestsTo(discoveryPath)).toBe(2);
  });

  it('keeps a configuration an hour, and fails it for a minute once its JWKS cannot be fetched', async () => {
    provider.answers.set(discoveryPath, { kind: 'json', body: ScriptedProvider.discoveryDocument(issuer()) });
    const configuration = await discover();
    await discover();
    expect(provider.requestsTo(discoveryPath)).toBe(1);
    provider.answers.set('/jwks', { kind: 'status', status: 503 });
    // The call openid-client makes when it checks an id_token's signature.
    await callsOf(configuration)(`${issuer()}/jwks`, {
      method: 'GET',
      headers: {},
      body: undefined,
      redirect: 'manual',
    });
    await expect(discover()).rejects.toMatchObject({ reason: 'discovery-failed', message: 'The JWKS answered 503' });
    clock.advance(61_000);
    await expect(discover()).resolves.toBeDefined();
    expect(provider.requestsTo(discoveryPath)).toBe(2);
  });

  it('makes at most 8 calls at once to one provider, refusing the ninth at once', async () => {
    provider.answers.set(discoveryPath, { kind: 'json', body: ScriptedProvider.discoveryDocument(issuer()) });
    provider.answers.set('/token', { kind: 'trickle', everyMs: 200 });
    const configuration = await discover();
    const body = new URLSearchParams({ code: 'x' });
    const call = () =>
      callsOf(configuration)(`${issuer()}/token`, { method: 'POST', headers: {}, body, redirect: 'manual' });
    const held = Array.from({ length: 8 }, () => call().catch((error: unknown) => error));
    await expect(call()).rejects.toThrow('Already 8 calls to this provider at once');
    await Promise.all(held);
    expect(provider.requestsTo('/token')).toBe(8);
  });
});
