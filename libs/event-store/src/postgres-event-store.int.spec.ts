// The contract suite and the PostgreSQL store's own guarantees, against a real PostgreSQL: a throw-away
// cluster started from Debian's binaries (testing/postgres-server.ts), else skipped with one line saying why.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  EventStoreTimeoutError,
  WrongExpectedRevisionError,
  type EventToAppend,
  type RecordedEvent,
} from './event-store.port.js';
import { openEventStore } from './open-event-store.js';
import { PostgresEventStore } from './postgres-event-store.js';
import { POSTGRES_SUBSCRIPTION_PAGE_SIZE } from './postgres-subscription.js';
import { describeEventStoreContract } from './testing/event-store.contract.js';
import { describePersonalKeysContract } from './testing/personal-keys.contract.js';
import { PostgresPersonalKeys } from './postgres-personal-keys.js';
import { startPostgresServer, type PostgresServer } from './testing/postgres-server.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`PostgreSQL event store suites SKIPPED: ${started.skip}.\n`);
const skip = 'skip' in started ? started.skip : undefined;
jest.setTimeout(60_000);

afterAll(async () => {
  await server?.stop();
});

let databases = 0;
async function newDatabase(): Promise<string> {
  databases += 1;
  return (server as PostgresServer).createDatabase(`chorus_${process.pid}_${databases}`);
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

describeEventStoreContract(
  'The PostgreSQL event store',
  async () => {
    const databaseUrl = await newDatabase();
    return {
      open: () => openEventStore({ dataDir: '/nonexistent', databaseUrl }),
      dispose: async () => undefined,
      // What an operator does, from another connection: the store has one kind of deletion.
      deleteStream: async (streamId) => {
        await sql(databaseUrl, 'INSERT INTO deleted_streams (stream_id) VALUES ($1)', [streamId]);
      },
    };
  },
  skip === undefined ? {} : { skip },
);

describePersonalKeysContract(
  'The PostgreSQL event store',
  async () => {
    const databaseUrl = await newDatabase();
    return {
      open: () => PostgresPersonalKeys.connect({ connectionString: databaseUrl }),
      // The table's files as the server writes them (after a checkpoint): main fork and its segments.
      storedBytes: async () => {
        await sql(databaseUrl, 'CHECKPOINT');
        const { rows } = await sql(
          databaseUrl,
          "SELECT current_setting('data_directory') AS dir, pg_relation_filepath('personal_keys') AS path",
        );
        const base = join(rows[0].dir as string, rows[0].path as string);
        const files = [base, ...Array.from({ length: 8 }, (_, segment) => `${base}.${segment + 1}`)].filter((path) =>
          existsSync(path),
        );
        return Buffer.concat(files.map((path) => readFileSync(path)));
      },
      dispose: async () => undefined,
    };
  },
  skip === undefined ? {} : { skip },
);

function anEvent(data: unknown = { value: 1 }): EventToAppend {
  return {
    id: randomUUID(),
    type: 'SomethingHappened',
    data,
    metadata: { actor: 'user:test', correlationId: 'c', causationId: 'c' },
  };
}

const describeIfServer = server === undefined ? describe.skip : describe;

describeIfServer('The PostgreSQL event store', () => {
  const stores: PostgresEventStore[] = [];
  const open = async (databaseUrl: string, pollIntervalMs?: number) => {
    const store = await PostgresEventStore.connect({ connectionString: databaseUrl, pollIntervalMs });
    stores.push(store);
    return store;
  };

  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  it('two writers racing: a reader never sees a position before every lower one, and positions end gapless', async () => {
    const databaseUrl = await newDatabase();
    // Two stores are two pools and two group commits: their transactions race in the server, as two nodes' would.
    const writers = [await open(databaseUrl), await open(databaseUrl)];
    const reader = await open(databaseUrl);
    const target: { upTo?: bigint } = {};
    const seen: bigint[] = [];
    const read = (async () => {
      let last = 0n;
      while (target.upTo === undefined || last < target.upTo) {
        const page = await reader.readAll({ fromPosition: last, maxCount: 1_000 });
        for (const event of page) {
          // The first event of a page is the one right after the last read: a later commit never shows first.
          if (event.position !== last + 1n) throw new Error(`saw position ${event.position} right after ${last}`);
          last = event.position;
          seen.push(last);
        }
      }
    })();
    await Promise.all(
      writers.flatMap((writer, index) =>
        Array.from({ length: 20 }, async (_, stream) => {
          let expected: bigint | 'no_stream' = 'no_stream';
          for (let batch = 0; batch < 25; batch += 1) {
            const events = batch % 3 === 0 ? [anEvent(), anEvent()] : [anEvent()];
            expected = (await writer.append(`race-${index}-${stream}`, events, expected)).nextExpectedRevision;
          }
        }),
      ),
    );
    const total = (await reader.headPosition()) ?? 0n;
    target.upTo = total;
    await read;
    expect(total).toBe(BigInt(2 * 20 * (25 + 9)));
    expect(seen).toEqual(Array.from({ length: Number(total) }, (_, index) => BigInt(index + 1)));
    const stats = writers.map((writer) => writer.groupCommitStats());
    // Each writer's concurrent appends shared commits.
    for (const stat of stats) expect(stat.commits).toBeLessThan(stat.writes);
  });

  it('splits a group commit of large appends: 40 concurrent appends of 900 KB each all land, in several commits', async () => {
    const store = await open(await newDatabase());
    const large = () => ({ ...anEvent(), data: { blob: 'x'.repeat(900 * 1024) } });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) => store.append(`large-${index}`, [large()], 'no_stream')),
    );
    expect(results.map((result) => result.nextExpectedRevision)).toEqual(results.map(() => 0n));
    const stats = store.groupCommitStats();
    // 16 MiB of JSON at most per commit: about 18 of these each.
    expect(stats.writes).toBe(40);
    expect(stats.commits).toBeGreaterThanOrEqual(3);
  });

  it('the database refuses the second of two stores appending at one revision: one wins, the other is told', async () => {
    const databaseUrl = await newDatabase();
    const [first, second] = [await open(databaseUrl), await open(databaseUrl)];
    const stream = `contested-${randomUUID()}`;
    for (let round = 0; round < 20; round += 1) {
      const expected = round === 0 ? ('no_stream' as const) : BigInt(round - 1);
      const outcomes = await Promise.allSettled([
        first.append(stream, [anEvent()], expected),
        second.append(stream, [anEvent()], expected),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
      expect(refused.reason).toBeInstanceOf(WrongExpectedRevisionError);
    }
    const read = await first.readStream(stream);
    expect(read.found && read.events.map((event) => event.revision)).toEqual(
      Array.from({ length: 20 }, (_, index) => BigInt(index)),
    );
  });

  it('subscriptions at the head share one query per commit, and each handler gets its own events', async () => {
    const databaseUrl = await newDatabase();
    const queries: string[] = [];
    const store = await PostgresEventStore.connect({
      connectionString: databaseUrl,
      pollIntervalMs: 60_000,
      traceQueries: (text) => queries.push(text),
    });
    stores.push(store);
    const received: RecordedEvent[][] = [[], [], [], []];
    let live = 0;
    for (const [which, mine] of received.entries())
      store.subscribeToAll({
        ...(which === 3 ? { filter: { eventTypes: ['Wanted'] } } : {}),
        onEvent: (event) => void mine.push(event),
        onCaughtUp: () => void (live += 1),
      });
    await waitFor(async () => live === 4, 5_000);
    const pageReads = () => queries.filter((text) => text.includes('WHERE position > $1')).length;
    const counts = () => received.map((mine) => mine.length).join(',');
    const before = pageReads();
    const events = [anEvent(), { ...anEvent(), type: 'Wanted' }, anEvent()];
    await store.append(`shared-${randomUUID()}`, events, 'no_stream');
    await waitFor(async () => counts() === '3,3,3,1', 5_000);
    // Without the shared query, each of the four subscriptions reads the same rows itself.
    expect(pageReads() - before).toBe(1);
    expect(received[0]?.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(received[0]?.[1]).not.toBe(received[1]?.[1]);
    expect(received[0]?.[1]).toEqual(received[1]?.[1]);
  });

  it('a stream read is one query, whether it finds events, none after a revision, or no stream', async () => {
    const databaseUrl = await newDatabase();
    const queries: string[] = [];
    const store = await PostgresEventStore.connect({
      connectionString: databaseUrl,
      traceQueries: (text) => queries.push(text),
    });
    stores.push(store);
    const streamId = `one-query-${randomUUID()}`;
    await store.append(streamId, [anEvent(), anEvent()], 'no_stream');
    await store.append(`deleted-${streamId}`, [anEvent()], 'no_stream');
    await store.markDeleted([`deleted-${streamId}`]);
    queries.length = 0;
    const reads = [
      await store.readStream(streamId),
      await store.readStream(streamId, { fromRevision: 2n }),
      await store.readStream(`never-${streamId}`),
      await store.readStream(`deleted-${streamId}`),
      await store.readStream(streamId, { direction: 'backwards', maxCount: 1 }),
    ];
    expect(reads.map((read) => (read.found ? read.events.map((event) => event.revision) : 'not found'))).toEqual([
      [0n, 1n],
      [],
      'not found',
      'not found',
      [1n],
    ]);
    expect(queries).toHaveLength(5);
  });

  it("a subscription is woken by another node's commit (LISTEN/NOTIFY), well before its poll", async () => {
    const databaseUrl = await newDatabase();
    const [node, other] = [await open(databaseUrl, 60_000), await open(databaseUrl)];
    const delivered: RecordedEvent[] = [];
    let caughtUp!: () => void;
    const live = new Promise<void>((resolve) => (caughtUp = resolve));
    node.subscribeToAll({ onEvent: (event) => void delivered.push(event), onCaughtUp: () => caughtUp() });
    await live;
    await waitFor(() => listenerCount(databaseUrl).then((count) => count === 1), 5_000);
    const event = anEvent();
    await other.append(`notified-${randomUUID()}`, [event], 'no_stream');
    await waitFor(async () => delivered.some((each) => each.id === event.id), 5_000);
  });

  it('a lost notification delays an event by one poll at most; with no poll it would not come', async () => {
    const databaseUrl = await newDatabase();
    const [polling, notPolling] = [await open(databaseUrl, 200), await open(databaseUrl, 60_000)];
    const deliveredTo = (store: PostgresEventStore) => {
      const delivered: string[] = [];
      store.subscribeToAll({ onEvent: (event) => void delivered.push(event.id) });
      return delivered;
    };
    const [byPoll, byNothing] = [deliveredTo(polling), deliveredTo(notPolling)];
    await waitFor(() => listenerCount(databaseUrl).then((count) => count === 2), 5_000);
    // An event committed without its notification (as when the listening connection was down when it was sent).
    const id = randomUUID();
    await sql(
      databaseUrl,
      `INSERT INTO events (position, stream_id, revision, event_id, type, data, metadata, recorded_at)
       SELECT coalesce(max(position), 0) + 1, $1, 0, $2, 'SomethingHappened', '{}', '{}', now() FROM events`,
      [`unnotified-${randomUUID()}`, id],
    );
    await waitFor(async () => byPoll.includes(id), 2_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(byNothing).not.toContain(id);
  });

  it('a listening connection the server dropped comes back, and what was committed meanwhile is delivered', async () => {
    const databaseUrl = await newDatabase();
    const [node, other] = [await open(databaseUrl, 300), await open(databaseUrl)];
    const delivered: string[] = [];
    node.subscribeToAll({ onEvent: (event) => void delivered.push(event.id) });
    await waitFor(() => listenerCount(databaseUrl).then((count) => count === 1), 5_000);
    await sql(
      databaseUrl,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'chorus-event-store-listen' AND datname = current_database()`,
    );
    const event = anEvent();
    await other.append(`while-down-${randomUUID()}`, [event], 'no_stream');
    await waitFor(async () => delivered.includes(event.id), 5_000);
    await waitFor(() => listenerCount(databaseUrl).then((count) => count === 1), 5_000);
  });

  it('a read the server does not answer in time rejects with EventStoreTimeoutError, and the store goes on after', async () => {
    const databaseUrl = await newDatabase();
    const store = await PostgresEventStore.connect({
      connectionString: databaseUrl,
      queryTimeoutMs: 300,
      timeoutMs: 300,
    });
    stores.push(store);
    await store.append(`timed-${randomUUID()}`, [anEvent()], 'no_stream');
    // Another session holds the table: every read waits behind it.
    const locker = new pg.Client({ connectionString: databaseUrl });
    await locker.connect();
    await locker.query('BEGIN; LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
    try {
      await expect(store.readAll()).rejects.toBeInstanceOf(EventStoreTimeoutError);
      await expect(store.readStream('any')).rejects.toMatchObject({ code: 'EVENT_STORE_TIMEOUT' });
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
    }
    expect(await store.readAll()).toHaveLength(1);
  });

  it("readLogByStream gives a prefix's streams one after another in binary order, up to a position, in pages", async () => {
    const databaseUrl = await newDatabase();
    const store = await open(databaseUrl);
    // Interleaved appends; 'p-B' sorts before 'p-a' byte by byte (whatever the database's locale says).
    for (const stream of ['p-a', 'p-B', 'q-x', 'p-a', 'p-B', 'p-a']) await store.append(stream, [anEvent()], 'any');
    const toPosition = 5n;
    await store.append('p-B', [anEvent()], 'any');

    const pages: string[][] = [];
    let after: { streamId: string; revision: bigint } | undefined;
    for (;;) {
      const page = await store.readLogByStream({ streamPrefix: 'p-', toPosition, after, maxCount: 2, parts: [] });
      if (page.length === 0) break;
      pages.push(page.map((event) => `${event.streamId}@${event.revision}#${event.position}`));
      const last = page[page.length - 1] as { streamId: string; revision: bigint };
      after = { streamId: last.streamId, revision: last.revision };
    }
    expect(pages).toEqual([
      ['p-B@0#2', 'p-B@1#5'],
      ['p-a@0#1', 'p-a@1#4'],
    ]);
  });

  it('events are append-only: UPDATE, DELETE and TRUNCATE are refused, by anyone', async () => {
    const databaseUrl = await newDatabase();
    const store = await open(databaseUrl);
    await store.append(`kept-${randomUUID()}`, [anEvent()], 'no_stream');
    for (const statement of ['UPDATE events SET type = $$Changed$$', 'DELETE FROM events', 'TRUNCATE events']) {
      await expect(sql(databaseUrl, statement)).rejects.toThrow(/append-only/);
    }
    expect(await store.headPosition()).toBe(1n);
  });

  // Last: it restarts the server under every other test's stores.
  it('a server restart ends no subscription: one reading when the server went away reads again, and appends go on', async () => {
    const databaseUrl = await newDatabase();
    const store = await open(databaseUrl, 200);
    const stream = `restart-${randomUUID()}`;
    // More than a page: the subscription must read again after its first page, which it will do with the server down.
    const backlog = Array.from({ length: POSTGRES_SUBSCRIPTION_PAGE_SIZE + 10 }, () => anEvent());
    await store.append(stream, backlog, 'no_stream');
    const delivered: string[] = [];
    const errors: Error[] = [];
    let serverDown!: () => void;
    const down = new Promise<void>((resolve) => (serverDown = resolve));
    let firstPageRead!: () => void;
    const firstPage = new Promise<void>((resolve) => (firstPageRead = resolve));
    store.subscribeToAll({
      onEvent: async (event) => {
        if (delivered.length === 0) {
          firstPageRead();
          await down;
        }
        delivered.push(event.id);
      },
      onError: (error) => void errors.push(error),
    });
    // The first page is in hand before the server stops (on a busy machine the stop could come first).
    await firstPage;

    await (server as PostgresServer).restart(async () => {
      serverDown();
      await waitFor(async () => delivered.length === POSTGRES_SUBSCRIPTION_PAGE_SIZE, 5_000);
      // The next page's read fails now; the subscription must try it again once the server is back.
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    // The pool's connections were cut: the first append may find one dead and fail as a whole, nothing written.
    const after = anEvent();
    const last = BigInt(backlog.length - 1);
    await waitFor(
      () =>
        store.append(stream, [after], last).then(
          () => true,
          (error: unknown) => error instanceof WrongExpectedRevisionError,
        ),
      10_000,
    );

    await waitFor(async () => delivered.length === backlog.length + 1, 10_000);
    expect(errors).toEqual([]);
    expect(delivered).toEqual([...backlog.map((event) => event.id), after.id]);
  });

  it('refuses DATABASE_URL and EVENTSTORE_CONNECTION_STRING together', async () => {
    await expect(
      openEventStore({
        dataDir: '/nonexistent',
        databaseUrl: 'postgres://x@127.0.0.1/x',
        connectionString: 'esdb://x',
      }),
    ).rejects.toThrow(/Both DATABASE_URL and EVENTSTORE_CONNECTION_STRING/);
  });
});

async function listenerCount(databaseUrl: string): Promise<number> {
  const { rows } = await sql(
    databaseUrl,
    `SELECT count(*)::int AS count FROM pg_stat_activity WHERE application_name = 'chorus-event-store-listen' AND datname = current_database()`,
  );
  return (rows[0] as { count: number }).count;
}

async function waitFor(condition: () => Promise<boolean>, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
