import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { foldOrganization, organizationStream, organizationView, type OrganizationEvent } from '#domain';
import { openEventStore, type EventStore } from '#event-store';
import { ReadModels } from './read-models.js';
import { readModelsFile } from './read-model-database.js';
import { executeOrganizationCommand, organizationSetUp } from './testing/organization-commands.js';
import { catalogue } from './testing/read-models-fixture.js';

// Two event stores and one DATA_DIR for the read models: the DATA_DIR reused after switching stores.
let root: string;
let readModelsDir: string;
const stores: EventStore[] = [];
const opened: ReadModels[] = [];

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'chorus-store-identity-'));
  readModelsDir = path.join(root, 'data');
});

afterEach(async () => {
  for (const readModels of opened.splice(0)) await readModels.close();
  for (const store of stores.splice(0)) await store.close();
  fs.rmSync(root, { recursive: true, force: true });
});

async function storeNamed(name: string): Promise<EventStore> {
  const store = await openEventStore({ dataDir: path.join(root, name) });
  stores.push(store);
  return store;
}

async function withOrganizations(store: EventStore, names: readonly string[]): Promise<void> {
  for (const [index, name] of names.entries()) {
    for (const command of organizationSetUp(name, index))
      await executeOrganizationCommand(store, catalogue, name, command);
  }
}

/** A projector over the shared read-model directory, caught up with `store`. */
async function projectorOver(store: EventStore): Promise<ReadModels> {
  const readModels = ReadModels.open({ dataDir: readModelsDir, store, catalogue });
  opened.push(readModels);
  readModels.start();
  const head = (await store.headPosition()) ?? 0n;
  expect(await readModels.waitForPosition(head, 10_000)).toBe(true);
  return readModels;
}

/** Resolves once every projection is live exactly at `position` (the test's timeout is the only limit). */
async function untilLiveAt(readModels: ReadModels, position: bigint): Promise<void> {
  while (!readModels.statuses().every((status) => status.state === 'live' && status.checkpoint === position)) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function close(readModels: ReadModels): Promise<void> {
  opened.splice(opened.indexOf(readModels), 1);
  await readModels.close();
}

async function viewOf(store: EventStore, organizationId: string) {
  const read = await store.readStream(organizationStream(organizationId));
  if (!read.found) throw new Error(`no stream for ${organizationId}`);
  const state = foldOrganization(
    read.events.map((event) => ({ type: event.type, data: event.data }) as OrganizationEvent),
  );
  if (!state.exists) throw new Error(`${organizationId} was not created`);
  return organizationView(state, catalogue);
}

function sql<T>(query: (db: Database.Database) => T): T {
  const db = new Database(readModelsFile(readModelsDir));
  try {
    return query(db);
  } finally {
    db.close();
  }
}

describe('read models and the identity of the event store', () => {
  it('records which store their checkpoints are positions of', async () => {
    const store = await storeNamed('first');
    await withOrganizations(store, ['acme']);

    await projectorOver(store);

    expect(sql((db) => db.prepare('SELECT store_id FROM read_model_source').pluck().get())).toBe(await store.storeId());
  });

  it('builds everything again when DATA_DIR is reused with another store, instead of resuming from its positions', async () => {
    const first = await storeNamed('first');
    await withOrganizations(first, ['acme', 'beta']);
    await close(await projectorOver(first));
    // The second store holds more events than the first: resuming at the first's checkpoint would skip its start.
    const second = await storeNamed('second');
    await withOrganizations(second, ['gamma', 'delta', 'epsilon']);

    const readModels = await projectorOver(second);

    expect(readModels.organizations.getOrganization('acme')).toBeUndefined();
    expect(readModels.organizations.organizationsOfUser('owner-0')).toEqual([
      { organizationId: 'gamma', name: 'Organization 0', role: 'owner' },
    ]);
    for (const name of ['gamma', 'delta', 'epsilon'])
      expect(readModels.organizations.getOrganization(name)?.view).toEqual(await viewOf(second, name));
    const head = (await second.headPosition()) as bigint;
    expect(readModels.statuses().map((status) => status.checkpoint)).toEqual(readModels.projections.map(() => head));
    expect(sql((db) => db.prepare('SELECT store_id FROM read_model_source').pluck().get())).toBe(
      await second.storeId(),
    );
  });

  it('keeps the model of a file from before identities were recorded when its checkpoints are within the store', async () => {
    const store = await storeNamed('first');
    await withOrganizations(store, ['acme']);
    await close(await projectorOver(store));
    sql((db) => db.exec('DELETE FROM read_model_source'));
    const generations = () =>
      sql((db) => db.prepare('SELECT projection, generation FROM projection_checkpoints ORDER BY projection').all());
    const before = generations();

    const readModels = await projectorOver(store);

    expect(generations()).toEqual(before);
    expect(readModels.organizations.getOrganization('acme')?.view).toEqual(await viewOf(store, 'acme'));
    expect(sql((db) => db.prepare('SELECT store_id FROM read_model_source').pluck().get())).toBe(await store.storeId());
  });

  it('builds a model again whose checkpoint is past the end of the log (a store restored from an older copy)', async () => {
    const store = await storeNamed('first');
    await withOrganizations(store, ['acme']);
    await close(await projectorOver(store));
    const head = (await store.headPosition()) ?? 0n;
    sql((db) => db.prepare("UPDATE projection_checkpoints SET position = ?, state = 'live'").run(head + 100n));
    sql((db) => db.exec("UPDATE organizations SET name = 'from the newer copy'"));

    const readModels = ReadModels.open({ dataDir: readModelsDir, store, catalogue });
    opened.push(readModels);
    readModels.start();
    // Not waitForPosition: the stale checkpoint is past every position until the model is reset.
    await untilLiveAt(readModels, head);

    expect(readModels.organizations.getOrganization('acme')?.view).toEqual(await viewOf(store, 'acme'));
    expect(readModels.statuses().map((status) => status.checkpoint)).toEqual(readModels.projections.map(() => head));
  });

  it('rebuilds for the store it reads, and refuses to rebuild part of a model made from another store', async () => {
    const first = await storeNamed('first');
    await withOrganizations(first, ['acme']);
    await close(await projectorOver(first));
    const second = await storeNamed('second');
    await withOrganizations(second, ['gamma', 'delta']);
    const cli = ReadModels.open({ dataDir: readModelsDir, store: second, catalogue });
    opened.push(cli);

    await expect(cli.rebuild({ only: ['organizations'] })).rejects.toThrow(/another event store: rebuild all of them/);
    const rebuilt = await cli.rebuild();

    expect(rebuilt.position).toBe(await second.headPosition());
    expect(cli.organizations.getOrganization('acme')).toBeUndefined();
    expect(cli.organizations.getOrganization('delta')?.view).toEqual(await viewOf(second, 'delta'));
    expect(sql((db) => db.prepare('SELECT store_id FROM read_model_source').pluck().get())).toBe(
      await second.storeId(),
    );
  });
});
