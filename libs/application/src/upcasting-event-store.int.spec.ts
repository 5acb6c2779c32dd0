// The upcasting store on the real SQLite store: every read (a stream, the whole log, the log's pages with and
// without metadata, by stream, a subscription) gives events in their current shape; every append its version.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { EventSchemas, type Upcaster } from '#domain';
import { SqliteEventStore, type RecordedEvent } from '#event-store';
import { eventMetadata, newCommandContext } from './command-context.js';
import { SCHEMA_VERSION, UpcastingEventStore } from './upcasting-event-store.js';

const renamed: Upcaster = { type: 'SeatTaken', from: 1, up: ({ guest, ...data }) => ({ ...data, name: guest }) };
const metadata = eventMetadata(newCommandContext('cli'));
let dataDir: string;
let raw: SqliteEventStore;
let store: UpcastingEventStore;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-upcasting-'));
  raw = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
  store = new UpcastingEventStore(raw, new EventSchemas([renamed]));
  // Written before SeatTaken had a version 2: no version stored, the old field.
  await raw.append('room-1', [{ id: randomUUID(), type: 'SeatTaken', data: { guest: 'ada' }, metadata }], 'no_stream');
  await store.append(
    'room-1',
    [
      { id: randomUUID(), type: 'SeatTaken', data: { name: 'grace' }, metadata },
      { id: randomUUID(), type: 'RoomOpened', data: {}, metadata },
    ],
    0n,
  );
});

afterEach(async () => {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const names = (events: readonly Pick<RecordedEvent, 'type' | 'data'>[]) =>
  events.filter((event) => event.type === 'SeatTaken').map((event) => event.data);

describe('the upcasting store', () => {
  it("stamps each appended event with its type's current version", async () => {
    const stored = await raw.readStream('room-1');
    expect(stored.found && stored.events.map((event) => event.metadata[SCHEMA_VERSION])).toEqual([undefined, 2, 1]);
  });

  it('reads a stream and the whole log in current shapes', async () => {
    const stream = await store.readStream('room-1');
    expect(stream.found && names(stream.events)).toEqual([{ name: 'ada' }, { name: 'grace' }]);
    expect(names(await store.readAll())).toEqual([{ name: 'ada' }, { name: 'grace' }]);
  });

  it("reads the log's pages in current shapes, whether or not metadata was asked for", async () => {
    // The version is in the metadata, so it is read either way; it stays on the event (taking it off would copy it).
    const bare = await store.readLog({ parts: [] });
    expect(names(bare)).toEqual([{ name: 'ada' }, { name: 'grace' }]);
    const withMetadata = await store.readLog({ parts: ['metadata'] });
    expect(withMetadata.map((event) => event.metadata[SCHEMA_VERSION])).toEqual([undefined, 2, 1]);
    const byStream = await store.readLogByStream?.({ streamPrefix: 'room-', toPosition: 10n, maxCount: 10, parts: [] });
    expect(names(byStream ?? [])).toEqual([{ name: 'ada' }, { name: 'grace' }]);
  });

  it('delivers a subscription its events in current shapes', async () => {
    const seen: unknown[] = [];
    const caughtUp = new Promise<void>((resolve) => {
      const subscription = store.subscribeToAll({
        onEvent: (event) => void seen.push(event.data),
        onCaughtUp: () => void subscription.close().then(resolve),
      });
    });
    await caughtUp;
    expect(seen).toEqual([{ name: 'ada' }, { name: 'grace' }, {}]);
  });
});
