import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { LoopbackNetwork, ScriptedProvider, tableResolver } from '../testing/scripted-provider.js';
import { createProviderFetch, PROVIDER_RESPONSE_MAX_BYTES } from './provider-fetch.js';

let provider: ScriptedProvider;

beforeAll(async () => {
  provider = await ScriptedProvider.start();
});
afterAll(() => provider.stop());
beforeEach(() => {
  provider.answers.clear();
  provider.requests.length = 0;
  provider.connections = 0;
  provider.bytesSent = 0;
});

const get = { method: 'GET', headers: { accept: 'application/json' } };

describe('the bounded provider fetch', () => {
  const bounded = createProviderFetch({ publicAddressesOnly: false, timeoutMs: 1_500 });

  it('answers what the provider sent, redirects included, without following them', async () => {
    provider.answers.set('/doc', { kind: 'json', body: { issuer: 'x' } });
    provider.answers.set('/moved', { kind: 'status', status: 302, headers: { location: `${provider.url}/doc` } });
    const answer = await bounded(`${provider.url}/doc`, get);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ issuer: 'x' });
    const moved = await bounded(`${provider.url}/moved`, get);
    expect(moved.status).toBe(302);
    expect(provider.requests.map((request) => request.path)).toEqual(['/doc', '/moved']);
  });

  it('cuts off a 300 MB answer past 64 KB, holding no more of it', async () => {
    provider.answers.set('/doc', { kind: 'huge', bytes: 300 * 1024 * 1024 });
    const rssBefore = process.memoryUsage().rss;
    await expect(bounded(`${provider.url}/doc`, get)).rejects.toThrow(
      `larger than ${PROVIDER_RESPONSE_MAX_BYTES} bytes`,
    );
    // What the socket buffers took before the cut, not the 300 MB on offer.
    expect(provider.bytesSent).toBeLessThan(16 * 1024 * 1024);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it('refuses an announced Content-Length over 64 KB before reading it', async () => {
    provider.answers.set('/doc', { kind: 'json', body: { padding: 'a'.repeat(PROVIDER_RESPONSE_MAX_BYTES) } });
    await expect(bounded(`${provider.url}/doc`, get)).rejects.toThrow('larger than');
  });

  it('gives up on an answer that trickles in, connect to last byte, after its timeout', async () => {
    provider.answers.set('/doc', { kind: 'trickle', everyMs: 100 });
    const started = Date.now();
    await expect(bounded(`${provider.url}/doc`, get)).rejects.toThrow('No complete answer within 1500 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('with connections kept open (a webhook receiver)', () => {
  const kept = createProviderFetch({ publicAddressesOnly: false, timeoutMs: 1_000, keepAlive: true });

  it('sends calls to one host over one connection, and one cut off by its timeout is not reused', async () => {
    provider.answers.set('/doc', { kind: 'json', body: { issuer: 'x' } });
    for (let call = 0; call < 3; call += 1) expect((await kept(`${provider.url}/doc`, get)).status).toBe(200);
    expect(provider.connections).toBe(1);
    provider.answers.set('/slow', { kind: 'trickle', everyMs: 100 });
    await expect(kept(`${provider.url}/slow`, get)).rejects.toThrow('No complete answer within 1000 ms');
    expect((await kept(`${provider.url}/doc`, get)).status).toBe(200);
    expect(provider.connections).toBe(2);
  });
});

describe('in production (public addresses only)', () => {
  // The URL parser turns 2130706433, 0x7f.1 and 127.1 into 127.0.0.1 before anything is judged.
  it.each([
    ['127.0.0.1'],
    ['[::1]'],
    ['[::ffff:127.0.0.1]'],
    ['[::ffff:7f00:1]'],
    ['0.0.0.0'],
    ['2130706433'],
    ['0x7f.1'],
    ['127.1'],
  ])('refuses the address literal %s before connecting', async (host) => {
    const production = createProviderFetch({ publicAddressesOnly: true });
    await expect(production(`http://${host}:${provider.port}/doc`, get)).rejects.toThrow('is not a public address');
    expect(provider.connections).toBe(0);
  });

  it.each([
    ['localhost (the system resolver)', undefined, 'localhost'],
    ['a name resolving to a private address', tableResolver({ 'idp.example': ['10.1.2.3'] }), 'idp.example'],
    [
      'a name with a public and a private address',
      tableResolver({ 'idp.example': ['203.0.113.10', '127.0.0.1'] }),
      'idp.example',
    ],
  ])('refuses %s at its connection, before connecting', async (_case, lookup, host) => {
    // No agent: Node's own connect asks the lookup hook.
    const production = createProviderFetch({ publicAddressesOnly: true, ...(lookup === undefined ? {} : { lookup }) });
    await expect(production(`http://${host}:${provider.port}/doc`, get)).rejects.toThrow('not a public address');
    expect(provider.connections).toBe(0);
  });

  it('judges the address of each connection: a name re-pointed to a private address after a first call gains nothing', async () => {
    provider.answers.set('/doc', { kind: 'json', body: { ok: true } });
    let answers = 0;
    const rebinding = tableResolver({
      'idp.example': () => (answers++ === 0 ? ['203.0.113.10'] : ['169.254.169.254']),
    });
    const production = createProviderFetch({
      publicAddressesOnly: true,
      lookup: rebinding,
      agent: new LoopbackNetwork(provider.port),
    });
    expect((await production(`http://idp.example:${provider.port}/doc`, get)).status).toBe(200);
    await expect(production(`http://idp.example:${provider.port}/doc`, get)).rejects.toThrow(
      '169.254.169.254, not a public address',
    );
    expect(provider.requestsTo('/doc')).toBe(1);
  });
});
