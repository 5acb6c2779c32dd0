// ApiKeys over a real SQLite store: the key's stream is read once per API_KEY_CACHE_MS per node, not on
// every request, and a revocation holds at once on the node that made it, within that bound
// on every other.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { createPlanCatalogue } from '#domain';
import { newCommandContext } from '#application';
import { SqliteEventStore, type EventStore } from '#event-store';
import { ManualClock } from '#identity';
import { AppClock } from '../../config/app-clock.js';
import { OrganizationStateCache } from '../../organizations/organizations.service.js';
import { Organizations } from '../../organizations/organizations.service.js';
import { organizationRoles } from '../../organizations/organization-streams.module.js';
import { API_KEY_CACHE_MS, API_KEY_USE_GRANULARITY_MS, ApiKeys } from './api-keys.service.js';

let dataDir: string;
let store: SqliteEventStore;
let clock: ManualClock;
let keyReads: number;

/** Another API node: its own ApiKeys (and cache) over the same store, every read of a key's stream counted. */
function node(): ApiKeys {
  const counting = new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'readStream') {
        return (streamId: string, options?: Parameters<EventStore['readStream']>[1]) => {
          if (streamId.startsWith('api-key-')) keyReads += 1;
          return target.readStream(streamId, options);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const identityClock = new AppClock();
  identityClock.pin(clock);
  const roles = organizationRoles(new Organizations(counting, new OrganizationStateCache(), createPlanCatalogue()));
  return new ApiKeys(counting, roles, identityClock, pino({ level: 'silent' }));
}

const context = () => newCommandContext('cli');

/** The ApiKeyUsed events of every key, in order. */
async function usesRecorded(): Promise<string[]> {
  const uses: string[] = [];
  for (const event of await store.readAll())
    if (event.type === 'ApiKeyUsed') uses.push((event.data as { at: string }).at);
  return uses;
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-api-keys-'));
  store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  clock = new ManualClock();
  keyReads = 0;
});
afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('API keys on a node', () => {
  it('read the key’s stream once per cache time, however many requests carry it', async () => {
    const keys = node();
    const { key } = await keys.create({ name: 'busy', scopes: ['organizations:read'] }, context());
    keyReads = 0;

    for (let request = 0; request < 100; request += 1)
      await expect(keys.authenticate(key, context())).resolves.toMatchObject({ scopes: ['organizations:read'] });
    const withinTheBound = keyReads;
    clock.advance(API_KEY_CACHE_MS);
    await keys.authenticate(key, context());

    // The first read, and the use recorded once an hour (decided on the stream): then nothing until the bound.
    expect(withinTheBound).toBeLessThanOrEqual(2);
    expect(keyReads).toBe(withinTheBound + 1);
  });

  it('never cache a key id nobody has, nor let a wrong secret through a cached key', async () => {
    const keys = node();
    const { key } = await keys.create({ name: 'k', scopes: ['audit:read'] }, context());
    await keys.authenticate(key, context());
    const wrongSecret = `${key.slice(0, -4)}${key.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    const nobodys = `chrs_${'0'.repeat(24)}_${'A'.repeat(43)}`;
    const before = keyReads;

    await expect(keys.authenticate(wrongSecret, context())).resolves.toBeUndefined();
    expect(keyReads).toBe(before);
    await expect(keys.authenticate(nobodys, context())).resolves.toBeUndefined();
    await expect(keys.authenticate(nobodys, context())).resolves.toBeUndefined();
    expect(keyReads).toBe(before + 2);
  });

  it('record a key’s use on its first request, then once per API_KEY_USE_GRANULARITY_MS however many follow', async () => {
    const keys = node();
    const { key } = await keys.create({ name: 'k', scopes: ['organizations:read'] }, context());
    const first = clock.now().toISOString();
    for (let request = 0; request < 3; request += 1) await keys.authenticate(key, context());
    clock.advance(API_KEY_USE_GRANULARITY_MS - 1);
    await keys.authenticate(key, context());
    expect(await usesRecorded()).toEqual([first]);
    clock.advance(1);
    const second = clock.now().toISOString();
    for (let request = 0; request < 3; request += 1) await keys.authenticate(key, context());
    expect(await usesRecorded()).toEqual([first, second]);
  });

  it('refuse a wrong secret and a revoked key however often the key was accepted before', async () => {
    const keys = node();
    const { key, keyId } = await keys.create({ name: 'k', scopes: ['organizations:read'] }, context());
    const accepted = await keys.authenticate(key, context());
    expect(accepted).toMatchObject({ keyId, scopes: ['organizations:read'] });
    expect(await keys.authenticate(key, context())).toEqual(accepted);
    expect(await keys.authenticate(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, context())).toBeUndefined();
    await keys.revoke(keyId, context());
    await expect(keys.authenticate(key, context())).resolves.toBeUndefined();
  });

  it('refuse a revoked key at once on the node that revoked it, within the cache time on another', async () => {
    const revoking = node();
    const other = node();
    const { key, keyId } = await revoking.create({ name: 'k', scopes: ['organizations:read'] }, context());
    await revoking.authenticate(key, context());
    await other.authenticate(key, context());

    await revoking.revoke(keyId, context());

    await expect(revoking.authenticate(key, context())).resolves.toBeUndefined();
    clock.advance(API_KEY_CACHE_MS - 1);
    await expect(other.authenticate(key, context())).resolves.toBeDefined();
    clock.advance(1);
    await expect(other.authenticate(key, context())).resolves.toBeUndefined();
  });
});
