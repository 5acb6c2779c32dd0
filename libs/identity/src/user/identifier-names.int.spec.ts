// The streams that hold addresses are named by a keyed hash whose key is not in the log: whoever has a copy of the log
// cannot find an address by hashing a guess. A store written before keeps its claims where they are until it is sealed.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { PersonalKeys } from '#application';
import { PERSONAL_KEYS_FILE, SqliteEventStore, SqlitePersonalKeys, type EventStore } from '#event-store';
import { identifierClaimDecider } from '#domain';
import { IDENTIFIER_NAMES_SUBJECT, openIdentifierNames, PLAIN_LOG_SUBJECT } from './identifier-names.js';

let dataDir: string;
let file: string;
let opened: { keys: PersonalKeys; store: EventStore }[];

const openNode = () => {
  const node = {
    keys: new PersonalKeys(SqlitePersonalKeys.open({ file: join(dataDir, PERSONAL_KEYS_FILE) })),
    store: SqliteEventStore.open({ file }),
  };
  opened.push(node);
  return node;
};
const unkeyed = (value: string) =>
  identifierClaimDecider.streamOf(`email-${createHash('sha256').update(value).digest('hex')}`);
const claimed = (userId: string) => [
  {
    id: randomUUID(),
    type: 'IdentifierClaimed',
    data: { kind: 'email', userId },
    metadata: { actor: 'cli', correlationId: 'c', causationId: 'c' },
  },
];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-identifier-names-'));
  file = join(dataDir, 'events.sqlite');
  opened = [];
});
afterEach(async () => {
  for (const node of opened) {
    await node.store.close();
    await node.keys.close();
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a store this build starts', () => {
  it('names an address by a keyed hash that a guess hashed without the key does not find, the same on every node', async () => {
    const a = openNode();
    const names = await openIdentifierNames(a.keys, a.store);
    const b = openNode();
    const namesOnB = await openIdentifierNames(b.keys, b.store);

    const stream = await names.streamOf('email', 'ada@example.com');
    expect(stream).not.toBe(unkeyed('ada@example.com'));
    expect(stream).not.toContain(createHash('sha256').update('ada@example.com').digest('hex'));
    expect(await namesOnB.streamOf('email', 'ada@example.com')).toBe(stream);
    expect(names.readsLegacyNames).toBe(false);
    expect((await a.keys.find([PLAIN_LOG_SUBJECT])).size).toBe(0);
  });

  it('stays keyed-only once it holds events', async () => {
    const a = openNode();
    const names = await openIdentifierNames(a.keys, a.store);
    await a.store.append(await names.streamOf('email', 'ada@example.com'), claimed('u1'), 'no_stream');

    expect((await openIdentifierNames(openNode().keys, a.store)).readsLegacyNames).toBe(false);
  });
});

describe('a store written before the names were keyed', () => {
  it('finds a claim where it was written, names a new value by the keyed hash, and stays so on every start until sealed', async () => {
    const a = openNode();
    await a.store.append(unkeyed('grace@example.com'), claimed('u-grace'), 'no_stream');

    const names = await openIdentifierNames(a.keys, a.store);
    expect(names.readsLegacyNames).toBe(true);
    expect(await names.streamOf('email', 'grace@example.com')).toBe(unkeyed('grace@example.com'));
    expect(await names.streamOf('email', 'new@example.com')).not.toBe(unkeyed('new@example.com'));

    // The mark is made before the key, so another node, or the next start, still reads the claims written before.
    const b = openNode();
    expect((await openIdentifierNames(b.keys, b.store)).readsLegacyNames).toBe(true);
    expect((await a.keys.find([IDENTIFIER_NAMES_SUBJECT])).size).toBe(1);

    await a.keys.erase(PLAIN_LOG_SUBJECT);
    expect((await openIdentifierNames(openNode().keys, a.store)).readsLegacyNames).toBe(false);
  });
});
