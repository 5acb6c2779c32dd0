// The embedded store chains every event as it appends it, whichever way (one event, several, several streams at once,
// group commits of concurrent writers, two connections on one file, an import), and a store written before the chain
// is chained once by chainNext, while appends go on.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { ChainCheck, type ChainedEvent } from './event-chain.js';
import type { EventToAppend } from './event-store.port.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { EVENT_STORE_MIGRATIONS, migrateEventStoreSchema } from './sqlite-migrations.js';
import { writeStoreBeforeTheChain } from './testing/store-before-the-chain.js';

const directories: string[] = [];
const stores: SqliteEventStore[] = [];

function newFile(): string {
  const directory = mkdtempSync(join(tmpdir(), 'chorus-chain-'));
  directories.push(directory);
  return join(directory, 'events.sqlite');
}

function open(file: string): SqliteEventStore {
  const store = SqliteEventStore.open({ file });
  stores.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const anEvent = (n = 1): EventToAppend => ({
  id: randomUUID(),
  type: 'SomethingHappened',
  data: { n },
  metadata: { actor: 'user:test', correlationId: 'c', causationId: 'c' },
});

async function wholeChain(store: SqliteEventStore): Promise<ChainedEvent[]> {
  return store.readChain(0n, 100_000);
}

function verdict(events: readonly ChainedEvent[]) {
  const check = new ChainCheck();
  for (const event of events) if (check.next(event) !== undefined) break;
  return { checked: check.checked, unchained: check.unchained, broken: check.broken };
}

describe('the embedded store’s chain', () => {
  it('chains every append in log order, however it comes', async () => {
    const file = newFile();
    const store = open(file);
    const other = open(file);
    await store.append('a', [anEvent()], 'no_stream');
    await store.append('a', [anEvent(), anEvent(), anEvent()], 0n);
    await store.appendToStreams([
      { streamId: 'b', events: [anEvent()], expectedRevision: 'no_stream' },
      { streamId: 'c', events: [anEvent(), anEvent()], expectedRevision: 'no_stream' },
    ]);
    // Concurrent writers share group commits; the second connection appends between them.
    await Promise.all([
      ...Array.from({ length: 30 }, (_, index) => store.append(`d-${index}`, [anEvent(index)], 'no_stream')),
      ...Array.from({ length: 10 }, (_, index) => other.append(`e-${index}`, [anEvent(index)], 'any')),
    ]);
    // A write that fails in a shared commit leaves no hole in the chain.
    await Promise.allSettled([
      store.append('a', [anEvent()], 0n),
      store.append('f', [anEvent()], 'no_stream'),
      store.append('a', [anEvent()], 3n),
    ]);

    const events = await wholeChain(store);
    expect(events).toHaveLength(1 + 3 + 3 + 30 + 10 + 2);
    expect(events.every((event) => event.hash?.length === 32)).toBe(true);
    expect(verdict(events)).toEqual({ checked: events.length, unchained: 0, broken: undefined });
  });

  it('chains two processes appending alone in turn: each finds the position the other took, and links to it', async () => {
    const file = newFile();
    const [one, two] = [open(file), open(file)];
    await one.append('x', [anEvent()], 'no_stream');
    await two.append('y', [anEvent()], 'no_stream');
    for (let round = 0; round < 10; round += 1) {
      await one.append('x', [anEvent(round)], 'any');
      await two.append('y', [anEvent(round)], 'any');
    }
    const events = await wholeChain(one);
    expect(events).toHaveLength(22);
    expect(verdict(events)).toEqual({ checked: 22, unchained: 0, broken: undefined });
  });

  it('chains on after a multi-stream append whose second part failed was rolled back, then appends alone', async () => {
    const store = open(newFile());
    await store.append('a', [anEvent()], 'no_stream');
    await store.append('b', [anEvent()], 'no_stream');
    await store.append('a', [anEvent()], 0n);
    // The first part is written, the second conflicts: nothing of it stays.
    await expect(
      store.appendToStreams([
        { streamId: 'c', events: [anEvent(), anEvent()], expectedRevision: 'no_stream' },
        { streamId: 'b', events: [anEvent()], expectedRevision: 5n },
      ]),
    ).rejects.toThrow();
    for (let revision = 1n; revision <= 3n; revision += 1n) await store.append('a', [anEvent()], revision);
    const events = await wholeChain(store);
    expect(events.map((event) => event.position)).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
    expect(verdict(events)).toEqual({ checked: 6, unchained: 0, broken: undefined });
  });

  it('chains an import at the positions it carries, as the source chained them', async () => {
    const source = open(newFile());
    for (let index = 0; index < 5; index += 1) await source.append(`s-${index % 2}`, [anEvent(index)], 'any');
    const target = open(newFile());
    await target.importEvents([await source.exportEvents(0n, 100)]);
    expect(await wholeChain(target)).toEqual(await wholeChain(source));
  });

  it('refuses any change to a chained event, its hash included', async () => {
    const file = newFile();
    await open(file).append('a', [anEvent()], 'no_stream');
    const db = new Database(file);
    try {
      expect(() => db.prepare(`UPDATE events SET data = '{"n":2}' WHERE position = 1`).run()).toThrow(/append-only/);
      expect(() => db.prepare(`UPDATE events SET hash = zeroblob(32) WHERE position = 1`).run()).toThrow(/append-only/);
    } finally {
      db.close();
    }
  });

  it('leaves a store written before the chain unchained until chainNext, then chains on, appends in between', async () => {
    const file = newFile();
    writeStoreBeforeTheChain(file, 'old', 25);

    const store = open(file);
    await store.append('new', [anEvent()], 'no_stream');
    expect(verdict(await wholeChain(store))).toEqual({ checked: 0, unchained: 26, broken: undefined });
    // Some events chained, then an append, then the rest: nothing is left out, nothing chained twice.
    expect(await store.chainNext(0n, 10)).toEqual({ chained: 10, lastPosition: 10n });
    await store.append('new', [anEvent()], 0n);
    expect(verdict(await wholeChain(store))).toEqual({ checked: 10, unchained: 17, broken: undefined });
    expect(await store.chainNext(10n, 100)).toEqual({ chained: 17, lastPosition: 27n });
    expect(await store.chainNext(27n, 100)).toEqual({ chained: 0, lastPosition: undefined });
    await store.append('new', [anEvent()], 1n);
    expect(verdict(await wholeChain(store))).toEqual({ checked: 28, unchained: 0, broken: undefined });
  });

  it('gives a chain in the first encoding (chorus-chain-v1) again in the second when it opens, the trigger kept', async () => {
    const file = newFile();
    const old = new Database(file);
    migrateEventStoreSchema(
      old,
      EVENT_STORE_MIGRATIONS.filter((migration) => migration.version <= 3),
    );
    // The first encoding: one SHA-256 over its name, the hash before, position, revision and the texts.
    const v1 = (previous: Buffer, position: number, revision: number, texts: string[]): Buffer => {
      const u64 = (n: number) => {
        const bytes = Buffer.alloc(8);
        bytes.writeBigUInt64BE(BigInt(n));
        return bytes;
      };
      const text = (value: string) => {
        const length = Buffer.alloc(4);
        length.writeUInt32BE(Buffer.byteLength(value));
        return [length, Buffer.from(value)];
      };
      return createHash('sha256')
        .update(
          Buffer.concat([
            Buffer.from('chorus-chain-v1'),
            previous,
            u64(position),
            u64(revision),
            ...texts.flatMap(text),
          ]),
        )
        .digest();
    };
    const insert = old.prepare(
      `INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash)
       VALUES (?, 'old', ?, ?, 'SomethingHappened', '{}', '{}', '2026-11-27T00:00:00.000Z', ?)`,
    );
    let previous: Buffer = Buffer.alloc(32);
    for (let revision = 0; revision < 30; revision += 1) {
      const id = randomUUID();
      previous = v1(previous, revision + 1, revision, [
        'old',
        id,
        'SomethingHappened',
        '2026-11-27T00:00:00.000Z',
        '{}',
        '{}',
      ]);
      insert.run(revision + 1, revision, id, previous);
    }
    old.close();

    const store = open(file);
    expect(verdict(await wholeChain(store))).toEqual({ checked: 30, unchained: 0, broken: undefined });
    await store.append('old', [anEvent()], 29n);
    expect(verdict(await wholeChain(store))).toEqual({ checked: 31, unchained: 0, broken: undefined });
    const db = new Database(file);
    try {
      expect(() => db.prepare(`UPDATE events SET hash = zeroblob(32) WHERE position = 1`).run()).toThrow(/append-only/);
    } finally {
      db.close();
    }
  });
});
