// The embedded store's events as rows of COPY's text (exportRows, written out in SQL) and PostgreSQL's import of them
// (importRows): every event byte for byte with its source's hash; into an empty log without its two unique keys, which
// the import builds at its end; an import cut short leaves a store that only an import opens, and the next one
// finishes it; what the keys refuse is refused at the end, and the store stays unfinished.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { EventRows, StoredEvent } from './event-store.port.js';
import { PostgresEventStore } from './postgres-event-store.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { startPostgresServer, type PostgresServer } from './testing/postgres-server.js';
import { importedAt } from './testing/imported-event.js';
import { writeStoreBeforeTheChain } from './testing/store-before-the-chain.js';
import { UnfinishedImport } from './unfinished-import.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`PostgreSQL import of rows SKIPPED: ${started.skip}.\n`);
const describeIf = 'skip' in started ? describe.skip : describe;
jest.setTimeout(60_000);

const folder = mkdtempSync(join(tmpdir(), 'chorus-import-rows-'));
const closing: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(closing.map((store) => store.close()));
  await server?.stop();
  rmSync(folder, { recursive: true, force: true });
});

let databases = 0;
const newDatabase = (): Promise<string> =>
  (server as PostgresServer).createDatabase(`chorus_rows_${process.pid}_${(databases += 1)}`);

async function openPostgres(url: string, importing = true): Promise<PostgresEventStore> {
  const store = await PostgresEventStore.connect({ connectionString: url, importing });
  closing.push(store);
  return store;
}

async function sql<Row extends pg.QueryResultRow>(url: string, text: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(text)).rows;
  } finally {
    await client.end();
  }
}

const uniqueKeys = async (url: string): Promise<string[]> =>
  (
    await sql<{ conname: string }>(
      url,
      `SELECT conname FROM pg_constraint WHERE conrelid = 'events'::regclass AND contype = 'u' ORDER BY conname`,
    )
  ).map((row) => row.conname);

const unfinished = async (url: string): Promise<number> =>
  (await sql<{ count: string }>(url, 'SELECT count(*)::text AS count FROM store_import'))[0]?.count === '1' ? 1 : 0;

const at = importedAt;

/** An embedded store of `count` events on a few streams, its first event holding every character COPY escapes. */
async function embeddedSource(count: number): Promise<SqliteEventStore> {
  const store = SqliteEventStore.open({ file: join(folder, `${randomUUID()}.sqlite`) });
  closing.push(store);
  const revisions = new Map<string, bigint>();
  const events: StoredEvent[] = [];
  for (let position = 1n; position <= BigInt(count); position += 1n) {
    const stream = `stream-${position % 7n}\twith a tab`;
    const revision = revisions.get(stream) ?? 0n;
    revisions.set(stream, revision + 1n);
    events.push(at(position, stream, revision));
  }
  events[0] = {
    ...(events[0] as StoredEvent),
    type: '\\N', // COPY's NULL, were it not escaped
    data: '{\n\t"text": "a\\ttab, a\\nline, a \\\\ and Zoë 🎉",\r\n "raw": "\\\\N"}',
    metadata: '{"actor":"cli","note":"\\u0000 stays text"}\n',
  };
  await store.importEvents([events]);
  return store;
}

/** The source's rows after `after`, in batches of `perBatch` pieces of `perPiece` events. */
async function* rowsOf(
  source: SqliteEventStore,
  after: bigint,
  perPiece: number,
  perBatch: number,
): AsyncGenerator<EventRows[]> {
  for (let last = after; ;) {
    const batch: EventRows[] = [];
    for (let piece = await source.exportRows(last, undefined, perPiece); piece !== undefined;) {
      batch.push(piece);
      last = piece.lastPosition;
      if (batch.length === perBatch) break;
      piece = await source.exportRows(last, undefined, perPiece);
    }
    if (batch.length === 0) return;
    yield batch;
  }
}

async function* once(batch: EventRows[]): AsyncGenerator<EventRows[]> {
  yield batch;
}

describeIf('rows of the embedded store imported into PostgreSQL', () => {
  it('land byte for byte with their hashes, and an empty log gets its two unique keys back at the end', async () => {
    const source = await embeddedSource(2_500);
    const url = await newDatabase();
    const target = await openPostgres(url);

    await target.importRows(rowsOf(source, 0n, 300, 3));

    expect(await target.exportEvents(0n, 10_000)).toEqual(await source.exportEvents(0n, 10_000));
    expect(await target.readChain(0n, 10_000)).toEqual(await source.readChain(0n, 10_000));
    expect(await uniqueKeys(url)).toEqual(['events_stream_event_id', 'events_stream_revision']);
    expect(await unfinished(url)).toBe(0);
    // Servers open it, and appends go on after the imported head.
    const served = await openPostgres(url, false);
    const next = await served.append(
      'after',
      [{ id: randomUUID(), type: 'After', data: {}, metadata: { actor: 'cli', correlationId: 'c', causationId: 'c' } }],
      'no_stream',
    );
    expect(next.position).toBe(2_501n);
  });

  it('cut short, leaves a store only an import opens; the next import goes on and builds the keys', async () => {
    const source = await embeddedSource(1_000);
    const url = await newDatabase();
    const target = await openPostgres(url);
    async function* firstThenCrash(): AsyncGenerator<EventRows[]> {
      const rows = rowsOf(source, 0n, 200, 2);
      yield (await rows.next()).value as EventRows[];
      throw new Error('killed');
    }

    await expect(target.importRows(firstThenCrash())).rejects.toThrow('killed');

    expect((await target.exportEvents(0n, 10_000)).length).toBe(400);
    expect(await unfinished(url)).toBe(1);
    expect(await uniqueKeys(url)).toEqual([]);
    await expect(PostgresEventStore.connect({ connectionString: url })).rejects.toThrow(UnfinishedImport);

    await target.importRows(rowsOf(source, 400n, 200, 2));

    expect(await target.exportEvents(0n, 10_000)).toEqual(await source.exportEvents(0n, 10_000));
    expect(await uniqueKeys(url)).toEqual(['events_stream_event_id', 'events_stream_revision']);
    expect(await unfinished(url)).toBe(0);
    await expect(openPostgres(url, false)).resolves.toBeInstanceOf(PostgresEventStore);
  });

  it('finishes an import killed once every row was in, with nothing more to take', async () => {
    const source = await embeddedSource(300);
    const url = await newDatabase();
    const target = await openPostgres(url);
    async function* allThenCrash(): AsyncGenerator<EventRows[]> {
      yield* rowsOf(source, 0n, 100, 3);
      throw new Error('killed before the keys');
    }
    await expect(target.importRows(allThenCrash())).rejects.toThrow('killed before the keys');
    expect(await unfinished(url)).toBe(1);

    await target.importRows(rowsOf(source, 300n, 100, 3));

    expect(await unfinished(url)).toBe(0);
    expect(await uniqueKeys(url)).toEqual(['events_stream_event_id', 'events_stream_revision']);
  });

  it('refuses at the end a stream revision given twice, and the store stays unfinished', async () => {
    const url = await newDatabase();
    const target = await openPostgres(url);
    const line = (position: number, revision: number): string =>
      [position, 'doubled', revision, randomUUID(), 'Imported', '{}', '{}', '2020-02-29T12:34:56.789Z', '\\\\x00'].join(
        '\t',
      );
    const piece = (first: number, lines: string[]): EventRows => ({
      text: Buffer.from(`${lines.join('\n')}\n`),
      count: lines.length,
      firstPosition: BigInt(first),
      lastPosition: BigInt(first + lines.length - 1),
      lastHash: Buffer.alloc(1),
    });
    async function* doubled(): AsyncGenerator<EventRows[]> {
      yield [piece(1, [line(1, 0), line(2, 1)])];
      yield [piece(3, [line(3, 1)])];
    }

    await expect(target.importRows(doubled())).rejects.toThrow(/revision or event id twice/);

    expect(await unfinished(url)).toBe(1);
    await expect(PostgresEventStore.connect({ connectionString: url })).rejects.toThrow(UnfinishedImport);
  });

  it('into a log that holds events, keeps its keys and refuses a clash at once, writing none of its batch', async () => {
    const source = await embeddedSource(50);
    const url = await newDatabase();
    const target = await openPostgres(url);
    await target.importRows(rowsOf(source, 0n, 20, 1));
    // A new stream, then one of the log's streams at a revision it holds.
    const other = SqliteEventStore.open({ file: join(folder, `${randomUUID()}.sqlite`) });
    closing.push(other);
    await other.importEvents([[at(51n, 'elsewhere', 0n), at(52n, 'stream-1\twith a tab', 0n)]]);
    const rows = (await other.exportRows(50n, undefined, 10)) as EventRows;

    await expect(target.importRows(once([rows]))).rejects.toThrow(/revision the log holds already/);

    expect((await target.exportEvents(0n, 10_000)).length).toBe(50);
    expect(await unfinished(url)).toBe(0);
    expect(await uniqueKeys(url)).toEqual(['events_stream_event_id', 'events_stream_revision']);
  });

  it('gives rows up to a position, none past the head, and none for events not chained yet', async () => {
    const source = await embeddedSource(10);
    expect(await source.exportRows(0n, undefined, 100)).toMatchObject({ count: 10, lastPosition: 10n });
    expect(await source.exportRows(0n, 4n, 100)).toMatchObject({ count: 4, firstPosition: 1n, lastPosition: 4n });
    expect(await source.exportRows(10n, undefined, 100)).toBeUndefined();

    // A store written before the chain: its events are read as events until store:chain gives them hashes.
    const file = join(folder, `${randomUUID()}.sqlite`);
    writeStoreBeforeTheChain(file, 'old', 5);
    const unchained = SqliteEventStore.open({ file });
    closing.push(unchained);
    expect(await unchained.exportRows(0n, undefined, 100)).toBeUndefined();
    await unchained.chainNext(0n, 100);
    expect(await unchained.exportRows(0n, undefined, 100)).toMatchObject({ count: 5, lastPosition: 5n });
  });
});
