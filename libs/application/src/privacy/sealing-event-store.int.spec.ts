// The sealing store on the real SQLite store and key table: no personal value reaches the file in clear, reads
// open them, and once a key is erased they read as erased, on this node at once and on another within the
// key cache's time.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  PERSONAL_KEYS_FILE,
  PersonalDataErasedError,
  SqliteEventStore,
  SqlitePersonalKeys,
  type EventToAppend,
  type RecordedEvent,
} from '#event-store';
import { eventMetadata, newCommandContext } from '../command-context.js';
import { KEY_CACHE_MS, PEOPLE_MADE_AHEAD, PersonalKeys } from './personal-keys-cache.js';
import { SealingEventStore } from './sealing-event-store.js';

const ada = { userId: 'a1b2c3', email: 'ada.lovelace@analytical.example' };
const request = eventMetadata(
  newCommandContext('user:owner', { clientIp: '203.0.113.77', userAgent: 'Mozilla/5.0 (Sealed Test)' }),
);
let dataDir: string;
let file: string;
let clock: number;
let keys: PersonalKeys;
let store: SealingEventStore;
let otherNode: { keys: PersonalKeys; store: SealingEventStore };

const memberAdded = (member = ada): EventToAppend => ({
  id: randomUUID(),
  type: 'MemberAdded',
  data: { ...member, role: 'admin' },
  metadata: request,
});
const fileBytes = (): Buffer =>
  Buffer.concat([file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)));
const dataOf = async (target: SealingEventStore, stream: string): Promise<unknown[]> => {
  const read = await target.readStream(stream);
  return read.found ? read.events.map((event) => event.data) : [];
};

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-sealing-'));
  file = join(dataDir, 'events.sqlite');
  clock = Date.parse('2030-01-15T10:00:00.000Z');
  const open = () => {
    const nodeKeys = new PersonalKeys(
      SqlitePersonalKeys.open({ file: join(dataDir, PERSONAL_KEYS_FILE) }),
      () => clock,
    );
    return {
      keys: nodeKeys,
      store: new SealingEventStore(SqliteEventStore.open({ file }), nodeKeys, () => new Date(clock)),
    };
  };
  ({ keys, store } = open());
  otherNode = open();
});

afterEach(async () => {
  await store.close();
  await otherNode.store.close();
  await keys.close();
  await otherNode.keys.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the sealing store', () => {
  it('writes no personal value in clear: the address, the client address and the user agent are sealed', async () => {
    await store.append('organization-acme', [memberAdded()], 'no_stream');
    const bytes = fileBytes();
    for (const value of [ada.email, '203.0.113.77', 'Sealed Test'])
      expect(bytes.includes(Buffer.from(value))).toBe(false);
    expect(bytes.includes(Buffer.from(ada.userId))).toBe(true);
  });

  it('opens them again on every read: a stream, the log, its pages and a subscription', async () => {
    await store.append('organization-acme', [memberAdded()], 'no_stream');
    const expected = { ...ada, role: 'admin' };
    expect(await dataOf(otherNode.store, 'organization-acme')).toEqual([expected]);
    expect(
      (await otherNode.store.readAll()).map((event) => [event.data, event.metadata.clientIp, event.metadata.userAgent]),
    ).toEqual([[expected, '203.0.113.77', 'Mozilla/5.0 (Sealed Test)']]);
    expect((await otherNode.store.readLog({ parts: [] })).map((event) => event.data)).toEqual([expected]);
    const delivered = await new Promise<RecordedEvent>((resolve) => {
      const subscription = otherNode.store.subscribeToAll({
        onEvent: (event) => void subscription.close().then(() => resolve(event)),
      });
    });
    expect(delivered.data).toEqual(expected);
  });

  it("reads an erased person's values as the same pseudonym throughout a stream, another in another stream", async () => {
    await store.append(
      'organization-acme',
      [
        memberAdded(),
        { ...memberAdded(), type: 'MemberRoleChanged', data: { ...ada, role: 'member', previousRole: 'admin' } },
      ],
      'no_stream',
    );
    await store.append('organization-initech', [memberAdded()], 'no_stream');
    await keys.erase(`person:${ada.userId}`);
    const [added, changed] = (await dataOf(store, 'organization-acme')) as { email: string }[];
    const [elsewhere] = (await dataOf(store, 'organization-initech')) as { email: string }[];
    expect(added?.email).toMatch(/^Erased person [0-9a-f]{4}$/);
    expect(changed?.email).toBe(added?.email);
    expect(elsewhere?.email).toMatch(/^Erased person [0-9a-f]{4}$/);
    expect(elsewhere?.email).not.toBe(added?.email);
  });

  it('reaches another node once its cached key has expired, and seals nothing more for the erased person', async () => {
    await store.append('organization-acme', [memberAdded()], 'no_stream');
    expect(await dataOf(otherNode.store, 'organization-acme')).toEqual([{ ...ada, role: 'admin' }]);
    await keys.erase(`person:${ada.userId}`);
    clock += KEY_CACHE_MS - 1;
    expect(await dataOf(otherNode.store, 'organization-acme')).toEqual([{ ...ada, role: 'admin' }]);
    clock += 1;
    expect(((await dataOf(otherNode.store, 'organization-acme'))[0] as { email: string }).email).toMatch(
      /^Erased person /,
    );
    await expect(otherNode.store.append('organization-acme', [memberAdded()], 0n)).rejects.toThrow(
      PersonalDataErasedError,
    );
  });

  it('reads a value it opened and kept as erased at once once its key is erased here', async () => {
    await store.append('organization-acme', [memberAdded()], 'no_stream');
    expect(await dataOf(store, 'organization-acme')).toEqual([{ ...ada, role: 'admin' }]);
    expect(await dataOf(store, 'organization-acme')).toEqual([{ ...ada, role: 'admin' }]);
    await keys.erase(`person:${ada.userId}`);
    expect(((await dataOf(store, 'organization-acme'))[0] as { email: string }).email).toMatch(/^Erased person /);
  });

  it('opens with the keys handed in, never with what it opened before with its own', async () => {
    await store.append('organization-acme', [memberAdded()], 'no_stream');
    expect(await dataOf(store, 'organization-acme')).toEqual([{ ...ada, role: 'admin' }]);
    const raw = SqliteEventStore.open({ file });
    try {
      const stored = await raw.readAll();
      const wrongKeys = new Map([
        [`person:${ada.userId}`, randomBytes(32)],
        ['period:2030-01', randomBytes(32)],
      ]);
      await expect(store.open(stored, wrongKeys)).rejects.toThrow(/authenticate/);
    } finally {
      await raw.close();
    }
  });

  it("reads a month's client addresses and user agents as removed once its key is gone, the rest as it was", async () => {
    await store.append('organization-acme', [memberAdded()], 'no_stream');
    await keys.erase('period:2030-01');
    const [event] = await store.readAll();
    expect([event?.metadata.clientIp, event?.metadata.userAgent, event?.metadata.actor]).toEqual([
      'removed',
      'removed',
      'user:owner',
    ]);
    expect(event?.data).toEqual({ ...ada, role: 'admin' });
  });
});

describe('new people, their keys made ahead', () => {
  it('makes the keys of many new people in one commit of the key store, each given out once', async () => {
    const ids = await Promise.all(Array.from({ length: PEOPLE_MADE_AHEAD }, () => keys.newPerson()));

    expect(new Set(ids).size).toBe(PEOPLE_MADE_AHEAD);
    const stored = await otherNode.keys.find(ids.map((id) => `person:${id}`));
    expect(stored.size).toBe(PEOPLE_MADE_AHEAD);
    // The next batch comes when these are all given out.
    expect(ids).not.toContain(await keys.newPerson());
  });

  it('seals a new person with the key made ahead, and gives back an id no one was given', async () => {
    const userId = await keys.newPerson();
    keys.giveBack(userId);
    expect(await keys.newPerson()).toBe(userId);

    await store.append('organization-acme', [memberAdded({ ...ada, userId })], 'no_stream');

    expect(await dataOf(otherNode.store, 'organization-acme')).toEqual([{ ...ada, userId, role: 'admin' }]);
  });

  it('holds a key made ahead only until its person is recorded: erased on another node, it stops opening here', async () => {
    const userId = await keys.newPerson();
    await store.append('organization-acme', [memberAdded({ ...ada, userId })], 'no_stream');

    await otherNode.keys.erase(`person:${userId}`);
    clock += KEY_CACHE_MS;

    expect(((await dataOf(store, 'organization-acme'))[0] as { email: string }).email).toMatch(/^Erased person /);
  });
});

describe("the node's keys read from the key store", () => {
  /** The key file behind a node's cache, with each `find` counted and held until released. */
  const heldKeyStore = () => {
    const inner = SqlitePersonalKeys.open({ file: join(dataDir, PERSONAL_KEYS_FILE) });
    const finds: string[][] = [];
    let release!: () => void;
    let held = new Promise<void>((resolve) => (release = resolve));
    const store = Object.assign(Object.create(inner) as typeof inner, {
      async find(subjects: readonly string[]) {
        finds.push([...subjects]);
        const read = await inner.find(subjects);
        await held;
        return read;
      },
    });
    return {
      store,
      finds,
      release: () => release(),
      hold: () => void (held = new Promise<void>((resolve) => (release = resolve))),
    };
  };

  it("reads a subject's key once for every reader that asks for it at the same moment", async () => {
    await keys.obtain('person:ada');
    const held = heldKeyStore();
    const cache = new PersonalKeys(held.store, () => clock);
    // The readers of one event (read models, reactions) open it together: without sharing, one query each.
    const asked = Array.from({ length: 6 }, () => cache.find(['person:ada']));
    held.release();
    const found = await Promise.all(asked);
    expect(held.finds).toEqual([['person:ada']]);
    expect(found.every((keysFound) => keysFound.get('person:ada')?.equals(found[0]?.get('person:ada') as Buffer))).toBe(
      true,
    );
    expect(found[0]?.get('person:ada')).toBeInstanceOf(Buffer);
  });

  it('gives no key, then or later, that a read begun before its erasure here found', async () => {
    await keys.obtain('person:ada');
    const held = heldKeyStore();
    const cache = new PersonalKeys(held.store, () => clock);
    const before = cache.find(['person:ada']);
    // The read has the key in hand; the erasure lands before it is answered.
    while (held.finds.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await cache.erase('person:ada');
    held.release();
    expect((await before).has('person:ada')).toBe(false);
    expect((await cache.find(['person:ada'])).has('person:ada')).toBe(false);
  });
});
