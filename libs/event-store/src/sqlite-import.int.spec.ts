// An import into an empty embedded log goes without its two unique indexes and builds them at its end: meanwhile the
// store opens only for an import, an import cut short is finished by the next one (which reads the streams' heads
// from the log once), a stream's revisions are still checked in order, and an event id given twice in one stream is
// refused when the indexes are built. Into a log that holds events, the indexes stay.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import type { StoredEvent } from './event-store.port.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { importedAt } from './testing/imported-event.js';
import { UnfinishedImport } from './unfinished-import.js';

const folder = mkdtempSync(join(tmpdir(), 'chorus-sqlite-import-'));
const stores: SqliteEventStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  rmSync(folder, { recursive: true, force: true });
});

const newFile = (): string => join(folder, `${randomUUID()}.sqlite`);
const open = (file: string, importing = true): SqliteEventStore => {
  const store = SqliteEventStore.open({ file, importing });
  stores.push(store);
  return store;
};

/** The log's unique indexes, as another connection sees them. */
function uniqueIndexes(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'events_stream_%' ORDER BY name`)
      .pluck()
      .all() as string[];
  } finally {
    db.close();
  }
}

/** `count` events at positions 1 to count, on three streams, each stream's revisions in order. */
function aLog(count: number): StoredEvent[] {
  const revisions = new Map<string, bigint>();
  return Array.from({ length: count }, (_, index) => {
    const stream = `stream-${index % 3}`;
    const revision = revisions.get(stream) ?? 0n;
    revisions.set(stream, revision + 1n);
    return importedAt(BigInt(index + 1), stream, revision);
  });
}

const BOTH = ['events_stream_event_id', 'events_stream_revision'];

describe('an import into an empty embedded log', () => {
  it('goes without the unique indexes and builds them at its end; then servers open it and appends go on', async () => {
    const file = newFile();
    const store = open(file);
    const log = aLog(90);
    const seen: string[][] = [];
    async function* batches(): AsyncGenerator<StoredEvent[]> {
      for (let start = 0; start < log.length; start += 30) {
        yield log.slice(start, start + 30);
        seen.push(uniqueIndexes(file));
      }
    }

    await store.importEvents(batches());

    expect(seen[0]).toEqual([]);
    expect(uniqueIndexes(file)).toEqual(BOTH);
    expect(await store.exportEvents(0n, 1_000)).toEqual(log);
    const served = open(file, false);
    expect(await served.append('stream-0', [anEvent()], 29n)).toMatchObject({
      nextExpectedRevision: 30n,
      position: 91n,
    });
  });

  it('cut short, opens only for an import; the next one goes on from the heads in the log and builds them', async () => {
    const file = newFile();
    const log = aLog(60);
    async function* firstThenCrash(): AsyncGenerator<StoredEvent[]> {
      yield log.slice(0, 30);
      throw new Error('killed');
    }
    await expect(open(file).importEvents(firstThenCrash())).rejects.toThrow('killed');

    expect(uniqueIndexes(file)).toEqual([]);
    expect(() => SqliteEventStore.open({ file })).toThrow(UnfinishedImport);
    const again = open(file);
    // A stream that skips a revision after the part already there is refused, as with the indexes.
    const skipping = { ...(log[30] as StoredEvent), revision: (log[30] as StoredEvent).revision + 1n };
    await expect(again.importEvents([[skipping]])).rejects.toThrow(/does not follow revision 9/);

    await again.importEvents([log.slice(30)]);

    expect(uniqueIndexes(file)).toEqual(BOTH);
    expect(await again.exportEvents(0n, 1_000)).toEqual(log);
    expect(() => open(file, false)).not.toThrow();
  });

  it('refuses an event id given twice in one stream when it builds the indexes, and stays unfinished', async () => {
    const file = newFile();
    const store = open(file);
    const first = importedAt(1n, 'doubled', 0n);

    await expect(store.importEvents([[first, { ...importedAt(2n, 'doubled', 1n), id: first.id }]])).rejects.toThrow(
      /revision or event id twice/,
    );

    expect(uniqueIndexes(file)).toEqual([]);
    expect(() => SqliteEventStore.open({ file })).toThrow(UnfinishedImport);
  });

  it('into a log that holds events, keeps the indexes throughout', async () => {
    const file = newFile();
    const store = open(file);
    await store.append('before', [anEvent()], 'no_stream');
    const seen: string[][] = [];
    async function* batches(): AsyncGenerator<StoredEvent[]> {
      yield [importedAt(2n, 'imported', 0n)];
      seen.push(uniqueIndexes(file));
      yield [importedAt(3n, 'imported', 1n)];
    }

    await store.importEvents(batches());

    expect(seen).toEqual([BOTH]);
    expect(await store.headPosition()).toBe(3n);
  });
});

function anEvent() {
  return {
    id: randomUUID(),
    type: 'SomethingHappened',
    data: {},
    metadata: { actor: 'cli', correlationId: 'c', causationId: 'c' },
  };
}
