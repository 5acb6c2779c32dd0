import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, stat } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import Database from 'better-sqlite3';
import {
  StreamDeletedError,
  WrongExpectedRevisionError,
  type EventToAppend,
  type RecordedEvent,
} from './event-store.port.js';
import { openEventStore } from './open-event-store.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { COMMITS_AT_ONCE_BETWEEN_TURNS, LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE } from './sqlite-group-commit.js';
import { EVENT_STORE_MIGRATIONS, migrateEventStoreSchema } from './sqlite-migrations.js';
import { SUBSCRIPTION_PAGE_SIZE } from './sqlite-subscription.js';
import { describeEventStoreContract } from './testing/event-store.contract.js';

describeEventStoreContract('The SQLite event store', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-event-store-'));
  return {
    open: () => openEventStore({ dataDir }),
    dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
    // What an operator does, from another connection: the store has one kind of deletion.
    deleteStream: async (streamId) => {
      const db = new Database(join(dataDir, 'events.sqlite'));
      db.prepare('INSERT INTO deleted_streams (stream_id, deleted_at) VALUES (?, ?)').run(
        streamId,
        new Date().toISOString(),
      );
      db.close();
    },
  };
});

function anEvent(type = 'SomethingHappened'): EventToAppend {
  return {
    id: randomUUID(),
    type,
    data: { value: 1 },
    metadata: { actor: 'user:test', correlationId: 'c', causationId: 'c' },
  };
}

describe('The SQLite event store', () => {
  const directories: string[] = [];
  const stores: SqliteEventStore[] = [];
  const newDataDir = () => {
    const directory = mkdtempSync(join(tmpdir(), 'chorus-event-store-'));
    directories.push(directory);
    return directory;
  };
  const openStore = (
    file: string,
    options: { now?: () => Date; pollIntervalMs?: number; traceStatements?: (sql: string) => void } = {},
  ) => {
    const store = SqliteEventStore.open({ file, ...options });
    stores.push(store);
    return store;
  };

  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  it('keeps its events in DATA_DIR/events.sqlite, created with the directory, in WAL mode', async () => {
    const dataDir = join(newDataDir(), 'nested', 'data');
    const store = await openEventStore({ dataDir });
    await store.append('org-1', [anEvent()], 'no_stream');
    await store.close();

    const file = join(dataDir, 'events.sqlite');
    expect(existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT count(*) FROM events').pluck().get()).toBe(1);
    db.close();
  });

  it('records its schema version once, and refuses a file from a newer Chorus', async () => {
    const file = join(newDataDir(), 'events.sqlite');
    await openStore(file).close();
    await openStore(file).close();

    const db = new Database(file);
    expect(db.prepare('SELECT version, name FROM schema_migrations').all()).toEqual([
      { version: 1, name: 'events' },
      { version: 2, name: 'store identity, deleted streams, append-only events' },
      { version: 3, name: 'the chain: each event hashed with the one before' },
      { version: 4, name: "the chain's second encoding: each event's digest linked to the hash before" },
    ]);
    db.prepare(
      "INSERT INTO schema_migrations (version, name, applied_at) VALUES (5, 'from the future', '2030-01-01T00:00:00.000Z')",
    ).run();
    db.close();

    expect(() => SqliteEventStore.open({ file })).toThrow(/schema version 5 is newer/);
  });

  it('has an identity of its own, kept in the file: another file is another store', async () => {
    const [fileA, fileB] = [join(newDataDir(), 'events.sqlite'), join(newDataDir(), 'events.sqlite')];
    const identityA = await openStore(fileA).storeId();

    expect(await openStore(fileA).storeId()).toBe(identityA);
    expect(await openStore(fileB).storeId()).not.toBe(identityA);
  });

  it('gives a file written before identities existed one when it is upgraded, keeping its events', async () => {
    const file = join(newDataDir(), 'events.sqlite');
    const v1 = new Database(file);
    migrateEventStoreSchema(
      v1,
      EVENT_STORE_MIGRATIONS.filter((migration) => migration.version === 1),
    );
    v1.prepare(
      "INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES ('org-1', 0, ?, 'OrganizationCreated', '{}', '{}', '2024-01-01T00:00:00.000Z')",
    ).run(randomUUID());
    v1.close();

    const store = openStore(file);

    expect(await store.storeId()).toMatch(/^[0-9a-f]{32}$/);
    expect(await store.headPosition()).toBe(1n);
  });

  it('refuses to delete or change a stored event, whoever asks', async () => {
    const file = join(newDataDir(), 'events.sqlite');
    await openStore(file).append('org-1', [anEvent()], 'no_stream');
    const operator = new Database(file);

    expect(() => operator.prepare("DELETE FROM events WHERE stream_id = 'org-1'").run()).toThrow(
      /append-only: to delete a stream, insert it into deleted_streams/,
    );
    expect(() => operator.prepare("UPDATE events SET data = '{}' WHERE stream_id = 'org-1'").run()).toThrow(
      /append-only/,
    );
    expect(operator.prepare('SELECT count(*) FROM events').pluck().get()).toBe(1);
    operator.close();
  });

  it('stamps recordedAt with its clock', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'), { now: () => new Date('2024-02-29T12:34:56.789Z') });
    await store.append('org-1', [anEvent(), anEvent()], 'no_stream');

    const read = await store.readStream('org-1');

    expect(read.found && read.events.map((event) => event.recordedAt)).toEqual([
      '2024-02-29T12:34:56.789Z',
      '2024-02-29T12:34:56.789Z',
    ]);
  });

  it('stamps recordedAt with the system clock by default, to the millisecond of each append', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    const instants = [
      '2024-02-29T12:34:56.789Z',
      '2024-02-29T12:34:56.789Z',
      '2024-02-29T12:34:56.790Z',
      '2024-02-29T12:34:56.789Z',
    ];
    jest.useFakeTimers({
      doNotFake: [
        'setImmediate',
        'clearImmediate',
        'setTimeout',
        'clearTimeout',
        'setInterval',
        'clearInterval',
        'nextTick',
        'queueMicrotask',
      ],
    });
    try {
      for (const [revision, instant] of instants.entries()) {
        jest.setSystemTime(new Date(instant));
        await store.append('org-1', [anEvent()], revision === 0 ? 'no_stream' : BigInt(revision - 1));
      }
    } finally {
      jest.useRealTimers();
    }

    const read = await store.readStream('org-1');

    expect(read.found && read.events.map((event) => event.recordedAt)).toEqual(instants);
  });

  it('starts empty: no head position, nothing to read', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));

    expect(await store.headPosition()).toBeUndefined();
    expect(await store.readAll()).toEqual([]);
    expect(await store.readStream('org-1')).toEqual({ found: false });
  });

  it('reads data and metadata that are parsed when first used, yet spread, clone, serialize and compare as ordinary properties', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    const appended = {
      ...anEvent(),
      metadata: { actor: 'user:test', correlationId: 'c-1', causationId: 'c-0', sourceIp: '127.0.0.1' },
    };
    await store.append('org-1', [appended], 'no_stream');
    const [event] = await store.readAll();
    if (event === undefined) throw new Error('the event was appended');

    expect(Object.keys(event)).toEqual([
      'id',
      'streamId',
      'type',
      'data',
      'metadata',
      'recordedAt',
      'revision',
      'position',
    ]);
    expect({ ...event }.metadata).toEqual(appended.metadata);
    expect(structuredClone(event).metadata).toEqual(appended.metadata);
    expect(JSON.parse(JSON.stringify({ ...event, revision: 0, position: 1 })).metadata).toEqual(appended.metadata);
    expect(event.metadata).toBe(event.metadata);
    event.metadata = { actor: 'system', correlationId: 'c-2', causationId: 'c-2' };
    expect(event.metadata.correlationId).toBe('c-2');
    const [again] = await store.readAll();
    expect(again?.metadata).toEqual(appended.metadata);

    expect({ ...event }.data).toEqual(appended.data);
    expect(structuredClone(event).data).toEqual(appended.data);
    expect(JSON.parse(JSON.stringify({ ...event, revision: 0, position: 1 })).data).toEqual(appended.data);
    expect(event).toEqual({ ...again, metadata: event.metadata });
    expect(event.data).toBe(event.data);
    event.data = { value: 2 };
    expect(event.data).toEqual({ value: 2 });
    expect((await store.readAll())[0]?.data).toEqual(appended.data);
  });

  it('reads a stream with events in one SQL statement, one without in two, with or without maxCount', async () => {
    const statements: string[] = [];
    const store = openStore(join(newDataDir(), 'events.sqlite'), { traceStatements: (sql) => statements.push(sql) });
    await store.append('user-1', [anEvent(), anEvent(), anEvent()], 'no_stream');
    const count = async (read: () => Promise<unknown>): Promise<number> => {
      statements.length = 0;
      await read();
      return statements.length;
    };

    expect(await count(() => store.readStream('user-1'))).toBe(1);
    expect(await count(() => store.readStream('user-1', { direction: 'backwards', maxCount: 2 }))).toBe(1);
    expect(await count(() => store.readStream('user-1', { fromRevision: 1n, maxCount: 1 }))).toBe(1);
    // Past its end, or no such stream: the empty read, then whether the stream exists and was deleted.
    expect(await count(() => store.readStream('user-1', { fromRevision: 3n }))).toBe(2);
    expect(await count(() => store.readStream('nobody'))).toBe(2);
    expect(await store.readStream('user-1', { fromRevision: 3n })).toEqual({ found: true, events: [] });
    expect(await store.readStream('nobody')).toEqual({ found: false });
  });

  it('reads as many events as maxCount asks, whatever number of distinct maxCounts it is given', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    await store.append(
      'org-1',
      Array.from({ length: 40 }, () => anEvent()),
      'no_stream',
    );
    for (let maxCount = 1; maxCount <= 40; maxCount += 1) {
      const forwards = await store.readStream('org-1', { maxCount });
      const backwards = await store.readStream('org-1', { direction: 'backwards', maxCount });
      const all = await store.readAll({ maxCount });
      expect([
        forwards.found && forwards.events.length,
        backwards.found && backwards.events.length,
        all.length,
      ]).toEqual([maxCount, maxCount, maxCount]);
    }
  });

  it('reads a deleted stream as not found, whether its read finds events or not', async () => {
    const file = join(newDataDir(), 'events.sqlite');
    const store = openStore(file);
    await store.append('org-1', [anEvent(), anEvent()], 'no_stream');
    const db = new Database(file);
    db.prepare('INSERT INTO deleted_streams (stream_id, deleted_at) VALUES (?, ?)').run(
      'org-1',
      new Date().toISOString(),
    );
    db.close();

    expect(await store.readStream('org-1')).toEqual({ found: false });
    expect(await store.readStream('org-1', { direction: 'backwards', maxCount: 1 })).toEqual({ found: false });
    expect(await store.readStream('org-1', { fromRevision: 5n })).toEqual({ found: false });
  });

  it('readLog reads only the envelope parts asked for, and parses data and metadata when first read', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    await store.append(
      'org-1',
      [
        { ...anEvent(), data: { value: 1 } },
        { ...anEvent(), data: { value: 2 } },
      ],
      'no_stream',
    );
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const [bare, other] = await store.readLog({ parts: [] });
      const [full] = await store.readLog({ parts: ['metadata', 'recordedAt', 'id'] });
      expect(parse).not.toHaveBeenCalled();
      expect(Object.keys(bare ?? {})).toEqual(['streamId', 'type', 'data', 'revision', 'position']);
      expect(Object.keys(full ?? {})).toEqual([
        'streamId',
        'type',
        'data',
        'revision',
        'position',
        'id',
        'metadata',
        'recordedAt',
      ]);

      expect(bare?.data).toEqual({ value: 1 });
      expect(bare?.data).toBe(bare?.data);
      expect(parse).toHaveBeenCalledTimes(1);
      expect(full?.metadata).toEqual({ actor: 'user:test', correlationId: 'c', causationId: 'c' });
      expect(parse).toHaveBeenCalledTimes(2);
      expect(other?.data).toEqual({ value: 2 });
      expect(parse).toHaveBeenCalledTimes(3);
    } finally {
      parse.mockRestore();
    }
  });

  it('commits appends issued together in one transaction; one failing caller does not fail the others', async () => {
    const file = join(newDataDir(), 'events.sqlite');
    const store = openStore(file);
    await store.append('contested', [anEvent()], 'no_stream');
    const before = store.groupCommitStats();
    const reader = new Database(file, { readonly: true });
    const visibleToOthers = (id: string) =>
      reader.prepare('SELECT count(*) FROM events WHERE event_id = ?').pluck().get(id) === 1;

    const independent = Array.from({ length: 64 }, (_, index) => {
      const event = anEvent();
      return store
        .append(`org-${index}`, [event], 'no_stream')
        .then((result) => ({ result, committed: visibleToOthers(event.id) }));
    });
    const contested = Array.from({ length: 3 }, () => store.append('contested', [anEvent()], 0n));
    const [independentOutcomes, contestedOutcomes] = await Promise.all([
      Promise.all(independent),
      Promise.allSettled(contested),
    ]);

    expect(independentOutcomes.every((outcome) => outcome.committed)).toBe(true);
    expect(contestedOutcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected']);
    expect(contestedOutcomes[1]?.status === 'rejected' && contestedOutcomes[1].reason).toBeInstanceOf(
      WrongExpectedRevisionError,
    );
    expect(store.groupCommitStats()).toMatchObject({ commits: before.commits + 1, writes: before.writes + 65 });
    reader.close();
  });

  it('commits a writer awaiting append after append when each append is issued, and every few appends after a turn', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    // The first append arrives in a task of its own: it waits for the turn, in case other tasks of the turn join it.
    let revision = (await store.append('alone', [anEvent()], 'no_stream')).nextExpectedRevision;
    const before = store.groupCommitStats();
    const appendNext = async () =>
      (revision = (await store.append('alone', [anEvent()], revision)).nextExpectedRevision);

    for (let index = 0; index < COMMITS_AT_ONCE_BETWEEN_TURNS; index += 1) await appendNext();
    expect(store.groupCommitStats()).toEqual({
      commits: before.commits + COMMITS_AT_ONCE_BETWEEN_TURNS,
      writes: before.writes + COMMITS_AT_ONCE_BETWEEN_TURNS,
      waitedForTurn: before.waitedForTurn,
    });

    // The next one waits for the turn, in case another task's append would join it.
    await appendNext();
    expect(store.groupCommitStats().waitedForTurn).toBe(before.waitedForTurn + 1);
  });

  it('does not starve timers and I/O while a writer awaits append after append', async () => {
    const directory = newDataDir();
    const store = openStore(join(directory, 'events.sqlite'));
    let revision = (await store.append('alone', [anEvent()], 'no_stream')).nextExpectedRevision;
    let timerFired = false;
    let ioDone = false;
    setTimeout(() => (timerFired = true), 1);
    stat(directory, () => (ioDone = true));

    // Without a turn now and then, this writer would never leave its task: it would stop only at the bound.
    let appends = 0;
    while (!(timerFired && ioDone) && appends < 10_000) {
      revision = (await store.append('alone', [anEvent()], revision)).nextExpectedRevision;
      appends += 1;
    }

    expect(timerFired && ioDone).toBe(true);
    expect(appends).toBeLessThan(10_000);
  });

  it('waits for the turn for an append of a task of its own, so that the other tasks of the turn share its commit', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    await store.append('warm', [anEvent()], 'no_stream');
    const before = store.groupCommitStats();

    // Each callback is a task of its own, as each HTTP request's is.
    const appended = await Promise.all(
      Array.from(
        { length: 8 },
        (_, index) =>
          new Promise((resolve) =>
            setImmediate(() => resolve(store.append(`task-${index}`, [anEvent()], 'no_stream'))),
          ),
      ),
    );

    expect(appended).toHaveLength(8);
    expect(store.groupCommitStats()).toEqual({
      commits: before.commits + 1,
      writes: before.writes + 8,
      waitedForTurn: before.waitedForTurn + 1,
    });
  });

  it('after a turn shared by several tasks, waits for the turn even for a writer awaiting its own appends, until turns come alone again', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    await Promise.all(
      Array.from(
        { length: 4 },
        (_, index) =>
          new Promise((resolve) =>
            setImmediate(() => resolve(store.append(`task-${index}`, [anEvent()], 'no_stream'))),
          ),
      ),
    );
    const before = store.groupCommitStats();

    const appends = LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE + COMMITS_AT_ONCE_BETWEEN_TURNS;
    let revision = (await store.append('alone', [anEvent()], 'no_stream')).nextExpectedRevision;
    for (let index = 1; index < appends; index += 1)
      revision = (await store.append('alone', [anEvent()], revision)).nextExpectedRevision;

    // Company was seen: the next turns are waited for, until LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE of them found none.
    expect(store.groupCommitStats()).toEqual({
      commits: before.commits + appends,
      writes: before.writes + appends,
      waitedForTurn: before.waitedForTurn + LONELY_TURNS_BEFORE_COMMITTING_AT_ONCE,
    });
  });

  it('undoes a one-event append refused by its insert in a shared transaction (no savepoint), and only that append, leaving no gap', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    const reused = anEvent();
    await store.append('org-1', [reused, anEvent()], 'no_stream');

    // The id is stored at revision 0, so its insert at revision 2 breaks the (stream, id) index.
    const outcomes = await Promise.allSettled([
      store.append('org-2', [anEvent()], 'no_stream'),
      store.append('org-1', [reused], 1n),
      store.append('org-3', [anEvent()], 'no_stream'),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes[1]?.status === 'rejected' && outcomes[1].reason).toBeInstanceOf(WrongExpectedRevisionError);
    const all = await store.readAll();
    expect(all.map((event) => [event.streamId, event.position])).toEqual([
      ['org-1', 1n],
      ['org-1', 2n],
      ['org-2', 3n],
      ['org-3', 4n],
    ]);
    expect(store.groupCommitStats()).toMatchObject({ commits: 2, writes: 3 });
  });

  it('undoes an append that fails half-way through its inserts, and only that append', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    const stored = anEvent();
    await store.append('org-1', [stored, anEvent()], 'no_stream');
    const halfWay = [anEvent(), stored];
    const alongside = anEvent();

    const [failed, committed] = await Promise.allSettled([
      store.append('org-1', halfWay, 1n),
      store.append('org-2', [alongside], 'no_stream'),
    ]);

    expect(failed).toMatchObject({ status: 'rejected', reason: { expected: 1n, actual: 1n } });
    expect(committed.status).toBe('fulfilled');
    const all = await store.readAll();
    expect(all.map((event) => event.streamId)).toEqual(['org-1', 'org-1', 'org-2']);
    expect(all.map((event) => event.position)).toEqual([1n, 2n, 3n]);
  });

  it('gives positions without gaps, even when appends sharing a transaction fail', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    await store.append('a', [anEvent()], 'no_stream');
    await Promise.allSettled([
      store.append('a', [anEvent(), anEvent()], 0n),
      store.append('a', [anEvent(), anEvent(), anEvent()], 0n),
      store.append('b', [anEvent()], 'no_stream'),
      store.append('b', [anEvent()], 'no_stream'),
      store.append('c', [anEvent(), anEvent()], 'any'),
    ]);

    const positions = (await store.readAll()).map((event) => event.position);

    expect(positions).toEqual([1n, 2n, 3n, 4n, 5n, 6n]);
  });

  it('fails every append of a transaction that fails as a whole, acknowledging none, and commits the next ones', async () => {
    const file = join(newDataDir(), 'events.sqlite');
    const store = SqliteEventStore.open({ file, busyTimeoutMs: 1 });
    stores.push(store);
    // Another process holds the write lock, so the shared transaction cannot begin.
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');

    const outcomes = await Promise.allSettled([
      store.append('org-1', [anEvent()], 'no_stream'),
      store.append('org-2', [anEvent()], 'no_stream'),
    ]);
    other.exec('ROLLBACK');
    other.close();

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect(
      outcomes.map((outcome) => outcome.status === 'rejected' && (outcome.reason as { code?: unknown }).code),
    ).toEqual(['SQLITE_BUSY', 'SQLITE_BUSY']);
    expect(store.groupCommitStats()).toMatchObject({ commits: 0, writes: 0 });
    await expect(store.append('org-1', [anEvent()], 'no_stream')).resolves.toMatchObject({ nextExpectedRevision: 0n });
    expect(await store.readAll()).toHaveLength(1);
  });

  it("checks an append to a stream it appended to against the revision it stored, not by reading the stream's head", async () => {
    const statements: string[] = [];
    const store = openStore(join(newDataDir(), 'events.sqlite'), { traceStatements: (sql) => statements.push(sql) });
    const count = async (append: () => Promise<unknown>) => {
      statements.length = 0;
      await append();
      const counted = (start: string) => statements.filter((sql) => sql.startsWith(start)).length;
      return { headReads: counted('SELECT max(revision)'), versionReads: counted('PRAGMA data_version') };
    };

    expect(await count(() => store.append('org-1', [anEvent()], 'no_stream'))).toEqual({
      headReads: 1,
      versionReads: 1,
    });
    expect(await count(() => store.append('org-1', [anEvent(), anEvent()], 'any'))).toEqual({
      headReads: 0,
      versionReads: 1,
    });
    expect(await count(() => store.append('org-1', [anEvent()], 2n))).toEqual({ headReads: 0, versionReads: 0 });
    expect(await count(() => store.append('org-2', [anEvent()], 'no_stream'))).toEqual({
      headReads: 1,
      versionReads: 0,
    });
    // Appends sharing a transaction: one data_version read for all.
    expect(
      await count(() => Promise.all([store.append('org-1', [anEvent()], 3n), store.append('org-2', [anEvent()], 0n)])),
    ).toEqual({
      headReads: 0,
      versionReads: 1,
    });
    await expect(store.append('org-1', [anEvent()], 3n)).rejects.toMatchObject({ expected: 3n, actual: 4n });
    const read = await store.readStream('org-1');
    expect(read.found && read.events.map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
  });

  it("appends one event alone in its commit, to a stream it appended to, as one statement: no BEGIN, no COMMIT, no stream's or log's head read", async () => {
    const statements: string[] = [];
    // The first two words of each statement run.
    const traceStatements = (sql: string) => statements.push(sql.trim().split(/\s+/).slice(0, 2).join(' '));
    const store = openStore(join(newDataDir(), 'events.sqlite'), { traceStatements });
    await store.append('org-1', [anEvent()], 'no_stream');

    for (const expected of [0n, 'any', 'stream_exists'] as const) {
      statements.length = 0;
      await store.append('org-1', [anEvent()], expected);
      // Nor the log's head for the commit's sync (WalSync): the end this connection committed is known.
      expect(statements).toEqual(['INSERT INTO']);
    }
    // Not remembered, or sharing its commit: in a transaction, as before.
    statements.length = 0;
    await store.append('org-2', [anEvent()], 'no_stream');
    expect(statements[0]).toBe('BEGIN IMMEDIATE');
    statements.length = 0;
    await Promise.all([store.append('org-1', [anEvent()], 3n), store.append('org-2', [anEvent()], 0n)]);
    expect(statements[0]).toBe('BEGIN IMMEDIATE');
    expect(store.groupCommitStats()).toMatchObject({ commits: 6, writes: 7 });
    const read = await store.readStream('org-1');
    expect(read.found && read.events.map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n, 4n]);
  });

  it("refers an append alone in its commit to the transaction's check when its statement cannot tell: a replay, a revision taken", async () => {
    const file = join(newDataDir(), 'events.sqlite');
    const store = openStore(file);
    const other = openStore(file);
    const first = anEvent();
    const original = await store.append('org-1', [first], 'no_stream');
    const last = anEvent();
    const appended = await store.append('org-1', [last], 'any');

    // A repeat of the last append, and of the first: the stream holds their ids, and answers as it did.
    await expect(store.append('org-1', [last], 'any')).resolves.toEqual(appended);
    await expect(store.append('org-1', [first], 'stream_exists')).resolves.toEqual(original);
    await expect(store.append('org-1', [last], 1n)).rejects.toMatchObject({ expected: 1n, actual: 1n });
    // Another process took the next revision: 'any' goes after it, an exact revision is refused with the actual one.
    await other.append('org-1', [anEvent()], 1n);
    await expect(store.append('org-1', [anEvent()], 'any')).resolves.toMatchObject({ nextExpectedRevision: 3n });
    await other.append('org-1', [anEvent()], 3n);
    await expect(store.append('org-1', [anEvent()], 3n)).rejects.toMatchObject({ expected: 3n, actual: 4n });
    await expect(store.append('org-1', [anEvent()], 4n)).resolves.toMatchObject({ nextExpectedRevision: 5n });
    const read = await store.readStream('org-1');
    expect(read.found && read.events.map((event) => event.revision)).toEqual([0n, 1n, 2n, 3n, 4n, 5n]);
  });

  it("sees another process's append and an operator's deletion between two of its own appends to a stream", async () => {
    const file = join(newDataDir(), 'events.sqlite');
    const store = openStore(file);
    const other = openStore(file);
    await store.append('org-1', [anEvent()], 'no_stream');
    await store.append('org-1', [anEvent()], 0n);

    await other.append('org-1', [anEvent()], 1n);
    await expect(store.append('org-1', [anEvent()], 1n)).rejects.toMatchObject({ expected: 1n, actual: 2n });
    await expect(store.append('org-1', [anEvent()], 2n)).resolves.toMatchObject({ nextExpectedRevision: 3n });

    const operator = new Database(file);
    operator
      .prepare('INSERT INTO deleted_streams (stream_id, deleted_at) VALUES (?, ?)')
      .run('org-1', new Date().toISOString());
    operator.close();
    await expect(store.append('org-1', [anEvent()], 3n)).rejects.toBeInstanceOf(StreamDeletedError);
    await expect(store.append('org-1', [anEvent()], 'any')).rejects.toBeInstanceOf(StreamDeletedError);
  });

  it('forgets the revisions a transaction rolled back as a whole had stored', async () => {
    const file = join(newDataDir(), 'events.sqlite');
    const store = openStore(file);
    // Standing in for an I/O error: SQLite abandons the whole transaction when this stream is written.
    const operator = new Database(file);
    operator.exec(
      `CREATE TRIGGER abandon AFTER INSERT ON events WHEN NEW.stream_id = 'abandon' BEGIN SELECT RAISE(ROLLBACK, 'abandoned'); END`,
    );
    operator.close();
    await store.append('org-1', [anEvent()], 'no_stream');

    const outcomes = await Promise.allSettled([
      store.append('org-1', [anEvent()], 0n),
      store.append('abandon', [anEvent()], 'no_stream'),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    await expect(store.append('org-1', [anEvent()], 1n)).rejects.toMatchObject({ expected: 1n, actual: 0n });
    await expect(store.append('org-1', [anEvent()], 0n)).resolves.toMatchObject({ nextExpectedRevision: 1n });
    const read = await store.readStream('org-1');
    expect(read.found && read.events.map((event) => event.revision)).toEqual([0n, 1n]);
  });

  it("finds a replay with 'any' anywhere in the stream, and refuses an id stored at another revision", async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    const early = [anEvent(), anEvent()];
    const original = await store.append('org-1', early, 'any');
    await store.append('org-1', [anEvent()], 'any');
    const reused = anEvent();
    await store.append('org-1', [reused], 'any');

    await expect(store.append('org-1', early, 'any')).resolves.toEqual(original);
    await expect(store.append('org-1', [reused], 3n)).rejects.toMatchObject({ expected: 3n, actual: 3n });
    await expect(store.append('org-1', [anEvent(), reused], 3n)).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    const read = await store.readStream('org-1');
    expect(read.found && read.events.length).toBe(4);
    await expect(store.append('org-2', [reused], 'no_stream')).resolves.toMatchObject({ nextExpectedRevision: 0n });
  });

  it('follows appends that another connection (another process) commits to the same file', async () => {
    const file = join(newDataDir(), 'events.sqlite');
    const following = openStore(file, { pollIntervalMs: 10 });
    const other = openStore(file);
    const received: RecordedEvent[] = [];
    let arrived: () => void = () => undefined;
    const allArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const subscription = following.subscribeToAll({
      onEvent: (event) => {
        received.push(event);
        if (received.length === 2) arrived();
      },
    });
    const events = [anEvent(), anEvent()];

    await other.append('org-1', events, 'no_stream');
    await allArrived;

    expect(received.map((event) => event.id)).toEqual(events.map((event) => event.id));
    await subscription.close();
  });

  it('releases its poll timer when the last subscription closes', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
    const before = timers();

    const first = store.subscribeToAll({ onEvent: () => undefined });
    const second = store.subscribeToAll({ onEvent: () => undefined });
    expect(timers()).toBe(before + 1);
    await first.close();
    expect(timers()).toBe(before + 1);
    await second.close();

    expect(timers()).toBe(before);
  });

  it('reads a commit once for all the subscriptions at the head; each still gets events of its own and stops alone', async () => {
    const statements: string[] = [];
    const store = openStore(join(newDataDir(), 'events.sqlite'), { traceStatements: (sql) => statements.push(sql) });
    const received: RecordedEvent[][] = [[], [], [], []];
    const errors: Error[] = [];
    let live = 0;
    const failure = new Error('this handler fails');
    const subscriptions = received.map((mine, which) =>
      store.subscribeToAll({
        ...(which === 3 ? { filter: { eventTypes: ['Wanted'] } } : {}),
        onEvent: (event) => {
          // The second one fails on the second event, synchronously: the others go on.
          if (which === 1 && mine.length === 1) throw failure;
          mine.push(event);
        },
        onCaughtUp: () => {
          live += 1;
        },
        onError: (error) => errors.push(error),
      }),
    );
    while (live < 4) await new Promise((resolve) => setImmediate(resolve));
    const pageReads = () => statements.filter((sql) => sql.includes('WHERE position >')).length;
    const counts = () => received.map((mine) => mine.length).join(',');
    const readsBefore = pageReads();

    const first = [anEvent(), anEvent('Wanted'), anEvent()];
    await store.append('org-1', first, 'no_stream');
    while (counts() !== '3,1,3,1') await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));

    expect(pageReads() - readsBefore).toBe(1);
    const second = [anEvent('Wanted'), anEvent()];
    await store.append('org-1', second, 2n);
    while (counts() !== '5,1,5,2') await new Promise((resolve) => setImmediate(resolve));

    const all = [...first, ...second].map((event) => event.id);
    expect(received.map((mine) => mine.map((event) => event.id))).toEqual([
      all,
      all.slice(0, 1),
      all,
      [all[1], all[3]],
    ]);
    expect(errors).toEqual([failure]);
    // Not one object handed to several handlers: each subscription's events are its own.
    expect(received[0]?.[1]).not.toBe(received[2]?.[1]);
    expect(received[0]?.[1]).toEqual(received[2]?.[1]);
    await Promise.all(subscriptions.map((subscription) => subscription.close()));
  });

  it('gives a new subscription what another process committed before it, even where another subscription read that page before', async () => {
    const file = join(newDataDir(), 'events.sqlite');
    // No poll in this test: only the new subscription's own read can see the other process's event.
    const store = openStore(file, { pollIntervalMs: 60_000 });
    const other = openStore(file);
    let firstLive = false;
    const first = store.subscribeToAll({
      onEvent: () => undefined,
      onCaughtUp: () => {
        firstLive = true;
      },
    });
    while (!firstLive) await new Promise((resolve) => setImmediate(resolve));

    const event = anEvent();
    await other.append('org-1', [event], 'no_stream');
    const received: RecordedEvent[] = [];
    let caughtUpAt: bigint | undefined | null = null;
    const second = store.subscribeToAll({
      onEvent: (recorded) => {
        received.push(recorded);
      },
      onCaughtUp: (position) => {
        caughtUpAt = position;
      },
    });
    while (caughtUpAt === null) await new Promise((resolve) => setImmediate(resolve));

    expect(received.map((recorded) => recorded.id)).toEqual([event.id]);
    expect(caughtUpAt).toBe(1n);
    await Promise.all([first.close(), second.close()]);
  });

  it('delivers the next event at once when the handler returns nothing (no promise to wait for)', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    await store.append('org-1', [anEvent(), anEvent(), anEvent()], 'no_stream');
    const received: RecordedEvent[] = [];
    let deliveredBeforeAMicrotask: number | undefined;
    const subscription = store.subscribeToAll({
      onEvent: (event) => {
        if (received.length === 0) queueMicrotask(() => (deliveredBeforeAMicrotask = received.length));
        received.push(event);
      },
    });
    while (deliveredBeforeAMicrotask === undefined) await new Promise((resolve) => setImmediate(resolve));

    expect(deliveredBeforeAMicrotask).toBe(3);
    await subscription.close();
  });

  it('lets the event loop run between pages while a subscription catches up, and while it follows a flood', async () => {
    const store = openStore(join(newDataDir(), 'events.sqlite'));
    const backlog = SUBSCRIPTION_PAGE_SIZE * 6;
    for (let batch = 0; batch < 6; batch += 1) {
      await store.append(
        `stream-${batch}`,
        Array.from({ length: SUBSCRIPTION_PAGE_SIZE }, () => anEvent()),
        'no_stream',
      );
    }
    let delivered = 0;
    let caughtUpAt: number | undefined;
    // Where an HTTP request, a timer or another subscription would get its turn.
    const lookedBetweenPages = new Promise<number>((resolve) => setImmediate(() => resolve(delivered)));
    const subscription = store.subscribeToAll({
      onEvent: () => {
        delivered += 1;
      },
      onCaughtUp: () => {
        caughtUpAt = delivered;
      },
    });
    try {
      expect(await lookedBetweenPages).toBe(SUBSCRIPTION_PAGE_SIZE);
      while (caughtUpAt === undefined) await new Promise((resolve) => setImmediate(resolve));
      expect(caughtUpAt).toBe(backlog);

      // Live: a flood appended at once is delivered page by page too.
      const flood = store.append(
        'flood',
        Array.from({ length: SUBSCRIPTION_PAGE_SIZE * 3 }, () => anEvent()),
        'no_stream',
      );
      await flood;
      const midFlood = new Promise<number>((resolve) => setImmediate(() => resolve(delivered)));
      expect(await midFlood).toBeLessThan(backlog + SUBSCRIPTION_PAGE_SIZE * 3);
      while (delivered < backlog + SUBSCRIPTION_PAGE_SIZE * 3) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      await subscription.close();
    }
  });
});
