import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { OrganizationCommand } from '#domain';
import type { EventStore } from '#event-store';
import { createTables, liveTableNames, type Projection } from '../projection.js';
import { openReadModelDatabase, readModelsFile, type ReadModelDatabase } from '../read-model-database.js';
import { organizationSetUp } from '../testing/organization-commands.js';
import { ReadModelsFixture } from '../testing/read-models-fixture.js';
import { replay, type ReplayProgress } from './replay.js';

let fixture: ReadModelsFixture;

/** Organizations interleaved in the log, members added, changed, removed and added again. */
beforeEach(async () => {
  fixture = await ReadModelsFixture.create();
  const ids = Array.from({ length: 7 }, (_, index) => `org-${index}`);
  for (let step = 0; step < 4; step += 1) {
    for (const [index, id] of ids.entries())
      await fixture.execute(id, organizationSetUp(id, index)[step] as OrganizationCommand);
  }
  const later: OrganizationCommand[] = [
    { type: 'AddMember', data: { userId: 'u1', email: 'u1@example.test', role: 'member' } },
    { type: 'AddMember', data: { userId: 'u2', email: 'u2@example.test', role: 'admin' } },
    { type: 'ChangeMemberRole', data: { userId: 'u1', role: 'admin' } },
    { type: 'RemoveMember', data: { userId: 'u1' } },
    { type: 'AddMember', data: { userId: 'u1', email: 'u1@example.test', role: 'auditor' } },
  ];
  for (const command of later) for (const id of ids) await fixture.execute(id, command);
});

afterEach(() => fixture.dispose());

/** What a store without readLogByStream offers (EventStoreDB's adapter): the log in position order only. */
function logOnly(store: EventStore): EventStore {
  return Object.create(store, { readLogByStream: { value: undefined } }) as EventStore;
}

/** The store, counting its reads. */
function counted(store: EventStore): { store: EventStore; reads: { log: number; byStream: number } } {
  const reads = { log: 0, byStream: 0 };
  const readLogByStream = store.readLogByStream?.bind(store);
  const wrapped = Object.create(store, {
    readLog: { value: (options: Parameters<EventStore['readLog']>[0]) => ((reads.log += 1), store.readLog(options)) },
    readLogByStream: {
      value:
        readLogByStream === undefined
          ? undefined
          : (options: Parameters<NonNullable<EventStore['readLogByStream']>>[0]) => (
              (reads.byStream += 1),
              readLogByStream(options)
            ),
    },
  }) as EventStore;
  return { store: wrapped, reads };
}

/** Every row of the model the projector built. */
function liveRows(projections: readonly Projection[]): Record<string, unknown[]> {
  const db = new Database(readModelsFile(fixture.dataDir), { readonly: true });
  try {
    return rowsOf(db, projections);
  } finally {
    db.close();
  }
}

function rowsOf(db: ReadModelDatabase, projections: readonly Projection[]): Record<string, unknown[]> {
  const rows: Record<string, unknown[]> = {};
  for (const projection of projections) {
    for (const table of projection.tables)
      rows[table.name] = db.prepare(`SELECT * FROM ${table.name} ORDER BY ${table.key.join(', ')}`).all();
  }
  return rows;
}

/**
 * Replays into a fresh in-memory database, in small pages and write chunks so that pages cut streams and flushes come
 * often.
 */
async function rebuilt(store: EventStore, toPosition?: bigint): Promise<Record<string, unknown[]>> {
  const projections = fixture.readModels('off').projections;
  const db: ReadModelDatabase = openReadModelDatabase(':memory:');
  try {
    for (const projection of projections) createTables(db, projection);
    await replay({
      db,
      store,
      targets: projections.map((projection: Projection) => ({
        projection,
        tables: liveTableNames(projection),
        startsEmpty: true,
      })),
      pageSize: 3,
      writeChunk: 2,
      memoryBudget: 4,
      ...(toPosition === undefined ? {} : { toPosition }),
    });
    return rowsOf(db, projections);
  } finally {
    db.close();
  }
}

describe('replay', () => {
  it('folds the per-stream models stream by stream, and builds the same tables as the projector and as a replay in log order', async () => {
    const projector = fixture.readModels();
    expect(await projector.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    await projector.close();
    const { store, reads } = counted(fixture.store);

    const byStream = await rebuilt(store);

    // The organization model reads its streams in order; the others (correlations, sign-ins, history) the log.
    expect(reads.byStream).toBeGreaterThan(0);
    expect(byStream).toEqual(await rebuilt(logOnly(fixture.store)));
    expect(byStream).toEqual(liveRows(projector.projections));
    expect((byStream.organizations ?? []).length).toBe(7);
    expect((byStream.memberships ?? []).length).toBe(21);
  });

  it('stops every stream at the target position, as a replay in log order does', async () => {
    const middle = (await fixture.head()) / 2n;
    expect(await rebuilt(fixture.store, middle)).toEqual(await rebuilt(logOnly(fixture.store), middle));
  });

  it('reports how far it is while it folds stream by stream, then over the log: rising, and 1 at the end', async () => {
    const projections = fixture.readModels('off').projections;
    const db = openReadModelDatabase(':memory:');
    const progress: ReplayProgress[] = [];
    try {
      for (const projection of projections) createTables(db, projection);
      await replay({
        db,
        store: fixture.store,
        targets: projections.map((projection: Projection) => ({
          projection,
          tables: liveTableNames(projection),
          startsEmpty: true,
        })),
        pageSize: 10,
        onProgress: (step) => progress.push(step),
      });
    } finally {
      db.close();
    }

    const fractions = progress.map((step) => step.fraction);
    // While the streams are folded one by one there is no position yet, and still the bar moves.
    const byStream = progress.filter((step) => step.position === undefined);
    expect(byStream.length).toBeGreaterThan(1);
    expect(byStream.some((step) => step.fraction > 0 && step.fraction < 0.5)).toBe(true);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(fractions.at(-1)).toBe(1);
  });

  it('writes each stream it folds stream by stream as soon as the next one begins, however large the memory budget', async () => {
    // Finished streams held longer outlive the young generation, and V8 may then allocate all later states in the old
    // one.
    await Promise.all(
      Array.from({ length: 450 }, (_, index) =>
        fixture.store.append(
          `tally-${index}`,
          [
            {
              id: randomUUID(),
              type: 'Counted',
              data: { index },
              metadata: { actor: 'test', correlationId: 'c', causationId: 'c' },
            },
          ],
          'no_stream',
        ),
      ),
    );
    const heldAtFlush: number[] = [];
    const written = new Set<string>();
    let held = new Set<string>();
    const tally: Projection = {
      name: 'tally',
      parts: [],
      tables: [],
      version: 1,
      streamPrefix: 'tally-',
      handles: (event) => event.streamId.startsWith('tally-'),
      writer: () => ({
        apply: (event) => void held.add(event.streamId),
        flush: () => {
          heldAtFlush.push(held.size);
          for (const streamId of held) written.add(streamId);
          return true;
        },
        discard: () => (held = new Set()),
        forget: () => (held = new Set()),
        get remembered() {
          return held.size;
        },
      }),
    };
    const db = openReadModelDatabase(':memory:');
    try {
      await replay({
        db,
        store: fixture.store,
        targets: [{ projection: tally, tables: new Map(), startsEmpty: true }],
        pageSize: 10,
        memoryBudget: 250_000,
      });
    } finally {
      db.close();
    }

    expect(written.size).toBe(450);
    // One flush per stream (here a stream per event), each of the one stream just finished.
    expect(heldAtFlush.length).toBe(450);
    expect(Math.max(...heldAtFlush)).toBe(1);
  });

  it('commits what it writes stream by stream as it goes, every 200 streams, not once at the end', async () => {
    // A live projector sharing the file waits for one transaction at a time.
    await Promise.all(
      Array.from({ length: 450 }, (_, index) =>
        fixture.store.append(
          `tally-${index}`,
          [
            {
              id: randomUUID(),
              type: 'Counted',
              data: { index },
              metadata: { actor: 'test', correlationId: 'c', causationId: 'c' },
            },
          ],
          'no_stream',
        ),
      ),
    );
    const dataDir = path.join(fixture.dataDir, 'replayed');
    const db = openReadModelDatabase(dataDir);
    const other = openReadModelDatabase(dataDir);
    const seenByOther: number[] = [];
    let held: string[] = [];
    const tally: Projection = {
      name: 'tally',
      parts: [],
      tables: [
        {
          name: 'tally',
          rowIs: 'stream',
          rowsAre: 'streams',
          key: ['stream_id'],
          create: (table) => `CREATE TABLE ${table} (stream_id TEXT PRIMARY KEY)`,
          indexes: [],
        },
      ],
      version: 1,
      streamPrefix: 'tally-',
      handles: (event) => event.streamId.startsWith('tally-'),
      writer: (writerDb) => {
        const insert = writerDb.prepare('INSERT INTO tally (stream_id) VALUES (?)');
        const count = other.prepare('SELECT count(*) FROM tally').pluck();
        return {
          apply: (event) => void held.push(event.streamId),
          flush: () => {
            for (const streamId of held) insert.run(streamId);
            held = [];
            seenByOther.push(count.get() as number);
            return true;
          },
          discard: () => (held = []),
          forget: () => undefined,
          get remembered() {
            return held.length;
          },
        };
      },
    };
    try {
      createTables(db, tally);
      await replay({
        db,
        store: fixture.store,
        targets: [{ projection: tally, tables: liveTableNames(tally), startsEmpty: true }],
        pageSize: 10,
      });
      expect(other.prepare('SELECT count(*) FROM tally').pluck().get()).toBe(450);
    } finally {
      other.close();
      db.close();
    }

    // Committed after the page in which the 200th, then the 400th stream was written (pages of 10 streams).
    expect(seenByOther.at(-1)).toBe(400);
    expect(new Set(seenByOther)).toEqual(new Set([0, 200, 400]));
  });

  it('folds stream by stream inside its caller’s transaction (the swap’s catch-up), which commits or rolls back its writes', async () => {
    const [organizations] = fixture.readModels('off').projections;
    if (organizations === undefined) throw new Error('no organization model');
    const db = openReadModelDatabase(':memory:');
    const count = (): unknown => db.prepare('SELECT count(*) FROM organizations').pluck().get();
    const targets = [{ projection: organizations, tables: liveTableNames(organizations), startsEmpty: true }];
    const caughtUp = () => replay({ db, store: fixture.store, targets, pageSize: 3 });
    try {
      createTables(db, organizations);
      db.exec('BEGIN IMMEDIATE');
      await caughtUp();
      expect(db.inTransaction).toBe(true);
      db.exec('ROLLBACK');
      expect(count()).toBe(0);

      db.exec('BEGIN IMMEDIATE');
      await caughtUp();
      db.exec('COMMIT');
      expect(count()).toBe(7);
    } finally {
      db.close();
    }
  });

  it('reads nothing in log order when every model being rebuilt is per stream', async () => {
    const { store, reads } = counted(fixture.store);
    const [organizations] = fixture.readModels('off').projections;
    const db = openReadModelDatabase(':memory:');
    try {
      if (organizations === undefined) throw new Error('no organization model');
      createTables(db, organizations);
      const result = await replay({
        db,
        store,
        targets: [{ projection: organizations, tables: liveTableNames(organizations), startsEmpty: true }],
      });
      expect(reads).toEqual({ log: 0, byStream: 1 });
      expect(result).toEqual({ position: await fixture.head(), events: Number(await fixture.head()) });
    } finally {
      db.close();
    }
  });
});
