// PostgreSQL chains every event as chorus_append stores it, in SQL, with the encoding of event-chain.ts: concurrent
// group commits and appends to several streams chain in log order and JS proves them; an import is chained on from
// the log's end as the source's was; a store written before the chain is chained once by chainNext while appends go
// on; a row takes its first hash and nothing else; sealing's rewrite gives the chain again.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ChainCheck, type ChainedEvent } from './event-chain.js';
import type { ChainedLog, EventToAppend } from './event-store.port.js';
import { PostgresEventStore } from './postgres-event-store.js';
import { PostgresLogRewriter } from './postgres-log-rewrite.js';
import { migratePostgresSchema, POSTGRES_MIGRATIONS } from './postgres-schema.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { startPostgresServer, type PostgresServer } from './testing/postgres-server.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`PostgreSQL chain suite SKIPPED: ${started.skip}.\n`);
const describeIf = 'skip' in started ? describe.skip : describe;
jest.setTimeout(60_000);

const stores: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  await server?.stop();
});

let databases = 0;
const newDatabase = (): Promise<string> =>
  (server as PostgresServer).createDatabase(`chorus_chain_${process.pid}_${(databases += 1)}`);

async function open(url: string): Promise<PostgresEventStore> {
  const store = await PostgresEventStore.connect({ connectionString: url });
  stores.push(store);
  return store;
}

async function sql(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

// Multi-byte text, a tab and a new line: the length prefixes count UTF-8 bytes, and COPY escapes what it must.
const anEvent = (n = 1): EventToAppend => ({
  id: randomUUID(),
  type: 'SomethingHappened',
  data: { n, name: 'Zoë 🎉 Ünïcode', note: 'a\tb\nc \\ d' },
  metadata: { actor: 'user:test', correlationId: 'c', causationId: 'c' },
});

async function wholeChain(store: ChainedLog): Promise<ChainedEvent[]> {
  const events: ChainedEvent[] = [];
  for (let after = 0n; ;) {
    const page = await store.readChain(after, 100);
    if (page.length === 0) return events;
    events.push(...page);
    after = page.at(-1)?.position ?? after;
  }
}

function verdict(events: readonly ChainedEvent[]) {
  const check = new ChainCheck();
  for (const event of events) if (check.next(event) !== undefined) break;
  return { checked: check.checked, unchained: check.unchained, broken: check.broken };
}

describeIf('The PostgreSQL chain', () => {
  it('chains concurrent appends, several at once and to several streams, in log order, as JS computes it', async () => {
    const store = await open(await newDatabase());
    await Promise.all(
      Array.from({ length: 20 }, (_, writer) =>
        (async () => {
          for (let n = 0; n < 5; n += 1)
            await store.append(`s-${writer}`, [anEvent(n), anEvent(n)], n === 0 ? 'no_stream' : BigInt(n * 2 - 1));
        })(),
      ),
    );
    await store.appendToStreams([
      { streamId: 'x', events: [anEvent()], expectedRevision: 'no_stream' },
      { streamId: 'y', events: [anEvent(), anEvent()], expectedRevision: 'no_stream' },
    ]);
    const events = await wholeChain(store);
    expect(events).toHaveLength(203);
    expect(verdict(events)).toEqual({ checked: 203, unchained: 0, broken: undefined });
  });

  it('refuses any change to a chained event, its hash included, and any deletion', async () => {
    const url = await newDatabase();
    const store = await open(url);
    await store.append('a', [anEvent()], 'no_stream');
    await expect(sql(url, `UPDATE events SET data = '{}' WHERE position = 1`)).rejects.toThrow(/append-only/);
    await expect(sql(url, `UPDATE events SET hash = '\\x00' WHERE position = 1`)).rejects.toThrow(/append-only/);
    await expect(sql(url, 'DELETE FROM events')).rejects.toThrow(/append-only/);
  });

  it('chains an import on from the log’s end, with the hashes its source gave', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'chorus-pg-chain-'));
    try {
      const source = SqliteEventStore.open({ file: join(directory, 'events.sqlite') });
      stores.push(source);
      for (let n = 0; n < 30; n += 1)
        await source.append(`s-${n % 3}`, [anEvent(n)], n < 3 ? 'no_stream' : BigInt(Math.floor(n / 3) - 1));
      const target = await open(await newDatabase());
      await target.importEvents([await source.exportEvents(0n, 12)]);
      await target.importEvents([await source.exportEvents(12n, 100)]);
      const [copied, original] = [await wholeChain(target), await wholeChain(source)];
      expect(copied.map((event) => event.hash?.toString('hex'))).toEqual(
        original.map((event) => event.hash?.toString('hex')),
      );
      expect(verdict(copied)).toEqual({ checked: 30, unchained: 0, broken: undefined });
      // Appends after the import go on from its last hash.
      await target.append('s-0', [anEvent()], 9n);
      expect(verdict(await wholeChain(target))).toMatchObject({ checked: 31, broken: undefined });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('leaves a store written before the chain unchained until chainNext, which chains it while appends go on', async () => {
    const url = await newDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await migratePostgresSchema(
      client,
      POSTGRES_MIGRATIONS.filter((migration) => migration.version <= 4),
    );
    await client.query(`SELECT chorus_append($1::jsonb, now())`, [
      JSON.stringify(
        Array.from({ length: 25 }, (_, n) => ({
          s: `old-${n}`,
          x: 'no_stream',
          e: [{ i: randomUUID(), t: 'SomethingHappened', d: '{}', m: '{}' }],
        })),
      ),
    ]);
    await client.end();

    const store = await open(url);
    await store.append('new', [anEvent()], 'no_stream');
    expect(verdict(await wholeChain(store))).toEqual({ checked: 0, unchained: 26, broken: undefined });
    expect(await store.chainNext(0n, 10)).toEqual({ chained: 10, lastPosition: 10n });
    await store.append('new', [anEvent()], 0n);
    expect(await store.chainNext(10n, 100)).toEqual({ chained: 17, lastPosition: 27n });
    await store.append('new', [anEvent()], 1n);
    expect(verdict(await wholeChain(store))).toEqual({ checked: 28, unchained: 0, broken: undefined });
  });

  it('gives the chain again over what sealing rewrote, from the first event it changed', async () => {
    const url = await newDatabase();
    const store = await open(url);
    // More than a page of the rewrite (1,000), past positions whose text sorts before a smaller one's ('1000' < '999').
    for (let n = 0; n < 12; n += 1)
      await store.append(
        'a',
        Array.from({ length: 100 }, () => anEvent(n)),
        n === 0 ? 'no_stream' : BigInt(n * 100 - 1),
      );
    const rewriter = await PostgresLogRewriter.connect(url);
    try {
      const result = await rewriter.rewrite(
        async (event) =>
          event.position === 4n
            ? { streamId: event.streamId, data: { sealed: true }, metadata: event.metadata }
            : undefined,
        async () => undefined,
      );
      expect(result).toMatchObject({ rewritten: 1, rechainedFrom: 4n });
    } finally {
      await rewriter.close();
    }
    expect(verdict(await wholeChain(store))).toEqual({ checked: 1_200, unchained: 0, broken: undefined });
    await expect(sql(url, `UPDATE events SET data = '{}' WHERE position = 1`)).rejects.toThrow(/append-only/);
  });
});
