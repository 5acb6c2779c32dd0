// A rebuild killed before its swap leaves aside tables behind; the next process to open the read
// models drops them, unless their rebuild is still running. (Killed for real, with SIGKILL, in
// test/crash/rebuild-sigkill.int.spec.ts.)
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import type { EventStore } from '#event-store';
import { readModelsFile } from '../read-model-database.js';
import { ReadModels } from '../read-models.js';
import { organizationSetUp } from '../testing/organization-commands.js';
import { catalogue, ReadModelsFixture } from '../testing/read-models-fixture.js';
import { RebuildLock } from './rebuild-lock.js';

let fixture: ReadModelsFixture;

beforeEach(async () => {
  fixture = await ReadModelsFixture.create();
  for (let index = 0; index < 5; index += 1)
    await fixture.execute(`org-${index}`, ...organizationSetUp(`org-${index}`, index));
});

afterEach(() => fixture.dispose());

function tableNames(): string[] {
  const db = new Database(readModelsFile(fixture.dataDir), { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[];
  } finally {
    db.close();
  }
}

const asideTables = (): string[] => tableNames().filter((name) => name.endsWith('__rebuild'));

/** What a rebuild killed halfway leaves: its aside tables, part filled, and nobody holding the lock. */
function leaveAbandonedRebuild(): void {
  const db = new Database(readModelsFile(fixture.dataDir));
  db.exec(`CREATE TABLE organizations__rebuild (id TEXT PRIMARY KEY, name TEXT, revision INTEGER, position INTEGER, state TEXT);
           INSERT INTO organizations__rebuild VALUES ('org-0', 'half built', 0, 1, '{}');
           CREATE TABLE event_correlations__rebuild (correlation_id TEXT, position INTEGER)`);
  db.close();
}

/** A store whose first read of the log waits until `release` is called: a rebuild caught with its aside tables made. */
function pausingStore(store: EventStore): { store: EventStore; release: () => void; paused: Promise<void> } {
  let release = (): void => undefined;
  let pausedNow = (): void => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const paused = new Promise<void>((resolve) => (pausedNow = resolve));
  const readLog: EventStore['readLog'] = async (options) => {
    pausedNow();
    await gate;
    return store.readLog(options);
  };
  return { store: Object.create(store, { readLog: { value: readLog } }) as EventStore, release, paused };
}

describe('aside tables of a rebuild that did not finish', () => {
  it('are dropped when the read models are next opened, and the served model is left as it was', async () => {
    const projector = fixture.readModels();
    expect(await projector.waitForPosition(await fixture.head(), 10_000)).toBe(true);
    const served = projector.organizations.getOrganization('org-0');
    expect(served).toBeDefined();
    await projector.close();
    leaveAbandonedRebuild();
    expect(asideTables()).toEqual(['event_correlations__rebuild', 'organizations__rebuild']);

    const reopened = fixture.readModels('off');
    expect(asideTables()).toEqual([]);
    expect(reopened.organizations.getOrganization('org-0')).toEqual(served);
    expect((await reopened.verify()).map((verification) => verification.drift)).toEqual(
      reopened.projections.map(() => []),
    );
  });

  it('are left to a rebuild that is still running, which then finishes normally', async () => {
    const pausing = pausingStore(fixture.store);
    const rebuilder = ReadModels.open({ dataDir: fixture.dataDir, store: pausing.store, catalogue });
    try {
      const rebuilding = rebuilder.rebuild();
      await pausing.paused;
      const building = asideTables();
      // Every table of every model, aside.
      expect(building).toEqual(
        rebuilder.projections
          .flatMap((projection) => projection.tables.map((table) => `${table.name}__rebuild`))
          .sort(),
      );

      // A server starting meanwhile, and another command: neither may pull the tables from under it.
      fixture.readModels();
      fixture.readModels('off');
      expect(asideTables()).toEqual(building);

      pausing.release();
      await expect(rebuilding).resolves.toMatchObject({
        projections: rebuilder.projections.map((projection) => projection.name),
      });
      expect(asideTables()).toEqual([]);
      expect((await rebuilder.verify()).map((verification) => verification.drift)).toEqual(
        rebuilder.projections.map(() => []),
      );
    } finally {
      pausing.release();
      await rebuilder.close();
    }
  });
});

describe('the rebuild lock', () => {
  it('has one holder at a time, and is free again once released', () => {
    const first = RebuildLock.acquire(fixture.dataDir, 0);
    expect(first).toBeDefined();
    expect(RebuildLock.acquire(fixture.dataDir, 0)).toBeUndefined();
    first?.release();
    const second = RebuildLock.acquire(fixture.dataDir, 0);
    expect(second).toBeDefined();
    second?.release();
  });
});
