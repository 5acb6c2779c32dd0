import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { EnvelopePart, LogEvent, RecordedEvent } from './event-store.port.js';
import { SqliteEventStore } from './sqlite-event-store.js';

const anEvent = (stream: string, index: number) => ({
  id: randomUUID(),
  type: 'Happened',
  data: { stream, index },
  metadata: { actor: 'user:test', correlationId: `c-${stream}-${index}`, causationId: 'c' },
});

const unchanging = ({ streamId, type, revision, position, data }: LogEvent) => ({
  streamId,
  type,
  revision,
  position,
  data,
});

/** The log's events of the prefix up to `toPosition`, stream by stream: what readLogByStream must answer. */
function byStream(log: readonly RecordedEvent[], prefix: string, toPosition: bigint): RecordedEvent[] {
  return log
    .filter((event) => event.streamId.startsWith(prefix) && event.position <= toPosition)
    .sort((a, b) => (a.streamId === b.streamId ? Number(a.revision - b.revision) : a.streamId < b.streamId ? -1 : 1));
}

describe('The SQLite event store, reading the log stream by stream', () => {
  let dataDir: string;
  let store: SqliteEventStore;
  let log: RecordedEvent[];

  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'chorus-event-store-'));
    store = SqliteEventStore.open({ file: join(dataDir, 'events.sqlite') });
    // Interleaved, with streams just outside the prefix on both sides of its range and the prefix itself as a stream.
    const streams = ['org-b', 'org-a', 'other', 'org,a', 'org-c', 'org.a', 'orga', 'org-', 'org-b-2', 'org-\u00e9'];
    for (let round = 0; round < 3; round += 1) {
      for (const stream of streams)
        await store.append(stream, [anEvent(stream, round)], round === 0 ? 'no_stream' : BigInt(round - 1));
    }
    log = await store.readAll();
  });

  afterEach(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers the events of the streams of the prefix, stream after stream in binary order, each in revision order', async () => {
    const head = log.at(-1)?.position ?? 0n;
    const read = await store.readLogByStream({ streamPrefix: 'org-', toPosition: head, maxCount: 100, parts: [] });

    expect(read.map(unchanging)).toEqual(byStream(log, 'org-', head).map(unchanging));
    expect([...new Set(read.map((event) => event.streamId))]).toEqual([
      'org-',
      'org-a',
      'org-b',
      'org-b-2',
      'org-c',
      'org-\u00e9',
    ]);
  });

  it('pages after the last event read, within a stream and across streams, whatever the page size', async () => {
    const head = log.at(-1)?.position ?? 0n;
    for (const maxCount of [1, 2, 3, 4, 7]) {
      const pages: LogEvent[] = [];
      let after: { streamId: string; revision: bigint } | undefined;
      for (;;) {
        const page = await store.readLogByStream({
          streamPrefix: 'org-',
          toPosition: head,
          maxCount,
          parts: [],
          ...(after === undefined ? {} : { after }),
        });
        expect(page.length).toBeLessThanOrEqual(maxCount);
        pages.push(...page);
        const last = page.at(-1);
        if (page.length < maxCount || last === undefined) break;
        after = { streamId: last.streamId, revision: last.revision };
      }
      expect(pages.map(unchanging)).toEqual(byStream(log, 'org-', head).map(unchanging));
    }
  });

  it('leaves out events recorded after toPosition, and gives the envelope parts asked for', async () => {
    const middle = log[14]?.position ?? 0n;
    const parts: EnvelopePart[] = ['id', 'metadata', 'recordedAt'];
    const read = await store.readLogByStream({ streamPrefix: 'org-', toPosition: middle, maxCount: 100, parts });

    const expected = byStream(log, 'org-', middle);
    expect(read.map(unchanging)).toEqual(expected.map(unchanging));
    expect(read.map(({ id, metadata, recordedAt }) => ({ id, metadata, recordedAt }))).toEqual(
      expected.map(({ id, metadata, recordedAt }) => ({ id, metadata, recordedAt })),
    );
  });

  it('gives events of own values, their data (and metadata) parsed as read: its reader folds every event it asks for', async () => {
    const head = log.at(-1)?.position ?? 0n;
    const [bare] = await store.readLogByStream({ streamPrefix: 'org-', toPosition: head, maxCount: 1, parts: [] });
    const [full] = await store.readLogByStream({
      streamPrefix: 'org-',
      toPosition: head,
      maxCount: 1,
      parts: ['metadata'],
    });

    // A value, not a getter parsing on first read (the lazy events of readLog cost the rebuild more).
    expect(Object.getOwnPropertyDescriptor(bare, 'data')).toMatchObject({
      value: { stream: 'org-', index: 0 },
      enumerable: true,
    });
    expect(Object.getOwnPropertyDescriptor(full, 'metadata')).toMatchObject({
      value: expect.objectContaining({ correlationId: 'c-org--0' }),
    });
    // Built by a constructor, not an object literal, which V8 may allocate in the old generation (sqlite-event-row.ts).
    expect(Object.getPrototypeOf(bare)).not.toBe(Object.prototype);
    expect({ ...full }).toEqual({ ...bare, metadata: expect.objectContaining({ correlationId: 'c-org--0' }) });
    expect(Object.keys(bare ?? {}).sort()).toEqual(['data', 'position', 'revision', 'streamId', 'type']);
  });

  it('reads a page as one JSON text, and a page whose text would pass the limit row by row, with the same answer', async () => {
    // 17 events of 1,000,000 bytes each: past PAGE_TEXT_LIMIT (16 MiB) as one text.
    const big = 'x'.repeat(1_000_000);
    for (let index = 0; index < 17; index += 1) {
      await store.append(
        'org-big',
        [{ ...anEvent('org-big', index), data: { big, index } }],
        index === 0 ? 'no_stream' : BigInt(index - 1),
      );
    }
    const all = await store.readAll();
    const head = all.at(-1)?.position ?? 0n;
    // Which reads run: the page as text (`SELECT CASE ...`, NULL past the limit), or the rows (`SELECT position, ...`).
    const reads: string[] = [];
    const traced = SqliteEventStore.open({
      file: join(dataDir, 'events.sqlite'),
      traceStatements: (sql) => reads.push(sql.trim().split(/\s+/).slice(0, 2).join(' ')),
    });
    const readPrefix = async (streamPrefix: string) => {
      reads.length = 0;
      const read = await traced.readLogByStream({ streamPrefix, toPosition: head, maxCount: 100, parts: ['metadata'] });
      expect(read.map(unchanging)).toEqual(byStream(all, streamPrefix, head).map(unchanging));
      expect(read.map(({ metadata }) => metadata)).toEqual(
        byStream(all, streamPrefix, head).map(({ metadata }) => metadata),
      );
      return read;
    };

    try {
      expect(await readPrefix('org-a')).toHaveLength(3);
      expect(reads).toEqual(['SELECT CASE']);
      expect(await readPrefix('org-big')).toHaveLength(17);
      expect(reads).toEqual(['SELECT CASE', 'SELECT position,']);
    } finally {
      await traced.close();
    }
  });

  it('refuses to page after a stream outside the prefix', async () => {
    await expect(
      store.readLogByStream({
        streamPrefix: 'org-',
        toPosition: 100n,
        maxCount: 10,
        parts: [],
        after: { streamId: 'orga', revision: 0n },
      }),
    ).rejects.toThrow(RangeError);
  });
});
