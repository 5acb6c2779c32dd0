import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { organizationStream, type ExistingOrganization } from '#domain';
import { WrongExpectedRevisionError } from '#event-store';
import { OrganizationRepository, READ_PAGE_SIZE } from './organization-repository.js';
import { OrganizationStateCache } from './organization-state-cache.js';
import { InMemoryEventStore } from './testing/in-memory-event-store.js';

const metadata = { actor: 'cli', correlationId: 'c', causationId: 'c' };
const stream = organizationStream('acme');

function storeWithHistory(members: number): InMemoryEventStore {
  const store = new InMemoryEventStore();
  store.appendNow(stream, [{ id: randomUUID(), type: 'OrganizationCreated', data: { id: 'acme', name: 'Acme' }, metadata }], 'no_stream');
  for (let index = 0; index < members; index += 1) {
    const userId = `m${index}`;
    store.appendNow(stream, [{ id: randomUUID(), type: 'MemberAdded', data: { userId, email: `${userId}@example.com`, role: 'member', chorusUser: false }, metadata }], 'any');
  }
  return store;
}

describe('OrganizationRepository', () => {
  it('loads an organization that does not exist as the initial state, without a revision', async () => {
    const repository = new OrganizationRepository(new InMemoryEventStore(), new OrganizationStateCache());

    expect(await repository.load('nobody')).toMatchObject({ state: { exists: false }, revision: undefined, position: undefined });
  });

  it('reads the whole stream once, in pages, then only the events recorded after the cached revision', async () => {
    const store = storeWithHistory(READ_PAGE_SIZE + 99);
    const repository = new OrganizationRepository(store, new OrganizationStateCache());

    const first = await repository.load('acme');
    store.appendNow(stream, [{ id: randomUUID(), type: 'MemberRemoved', data: { userId: 'm0' }, metadata }], BigInt(READ_PAGE_SIZE + 99));
    const second = await repository.load('acme');

    expect(store.reads).toEqual([
      { streamId: stream, fromRevision: 0n, returned: READ_PAGE_SIZE },
      { streamId: stream, fromRevision: BigInt(READ_PAGE_SIZE), returned: 100 },
      { streamId: stream, fromRevision: BigInt(READ_PAGE_SIZE + 100), returned: 1 },
    ]);
    expect(first.revision).toBe(BigInt(READ_PAGE_SIZE + 99));
    expect(second.revision).toBe(BigInt(READ_PAGE_SIZE + 100));
    expect((second.state as ExistingOrganization).members).toHaveLength(READ_PAGE_SIZE + 98);
  });

  it('folds appended events into the cache, so the next load reads nothing', async () => {
    const store = storeWithHistory(0);
    const repository = new OrganizationRepository(store, new OrganizationStateCache());
    const loaded = await repository.load('acme');

    const appended = await repository.append(loaded, [{ type: 'ChorusEnabled', data: {} }], metadata);
    const again = await repository.load('acme');

    expect(appended.revision).toBe(1n);
    expect(store.reads.at(-1)).toEqual({ streamId: stream, fromRevision: 2n, returned: 0 });
    expect(again).toMatchObject({ revision: 1n, state: { chorus: { enabled: true } } });
  });

  it('appends at the revision it loaded: a stream that moved on since is a conflict', async () => {
    const store = storeWithHistory(0);
    const repository = new OrganizationRepository(store, new OrganizationStateCache());
    const loaded = await repository.load('acme');
    store.appendNow(stream, [{ id: randomUUID(), type: 'ChorusEnabled', data: {}, metadata }], 0n);

    await expect(repository.append(loaded, [{ type: 'ChorusDisabled', data: {} }], metadata)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
  });
});
