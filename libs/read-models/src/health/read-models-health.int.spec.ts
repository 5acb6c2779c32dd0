import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { openEventStore, type EventStore } from '#event-store';
import { ReadModels } from '../read-models.js';
import { executeOrganizationCommand, organizationSetUp } from '../testing/organization-commands.js';
import { catalogue } from '../testing/read-models-fixture.js';

const minuteMs = 60_000;
let dataDir: string;
let store: EventStore;
const opened: ReadModels[] = [];

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chorus-health-'));
  // Every event was recorded a minute ago.
  store = await openEventStore({ dataDir, now: () => new Date(Date.now() - minuteMs) });
});

afterEach(async () => {
  for (const readModels of opened.splice(0)) await readModels.close();
  await store.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function readModels(): ReadModels {
  const opening = ReadModels.open({ dataDir, store, catalogue });
  opened.push(opening);
  return opening;
}

describe('/health lag', () => {
  it('counts the events not yet applied (up to 1,000) and how long ago the oldest was recorded, not positions', async () => {
    for (const command of organizationSetUp('acme', 1))
      await executeOrganizationCommand(store, catalogue, 'acme', command);
    const reader = readModels();

    expect((await reader.health()).projections[0]).toMatchObject({ name: 'organizations', checkpoint: null, lag: 4 });
    const lagMs = (await reader.health()).projections[0]?.lagMs ?? 0;
    expect(lagMs).toBeGreaterThanOrEqual(minuteMs);
    expect(lagMs).toBeLessThan(10 * minuteMs);

    const bulk = Array.from({ length: 1_200 }, () => ({
      id: randomUUID(),
      type: 'Counted',
      data: {},
      metadata: { actor: 'test', correlationId: 'c', causationId: 'c' },
    }));
    await store.append('bulk', bulk, 'no_stream');
    expect((await reader.health()).projections[0]).toMatchObject({ lag: 1_000 });

    const projector = readModels();
    projector.start();
    expect(await projector.waitForPosition((await store.headPosition()) ?? 0n, 10_000)).toBe(true);
    expect((await projector.health()).projections).toEqual([
      expect.objectContaining({ name: 'organizations', lag: 0, lagMs: 0 }),
      expect.objectContaining({ name: 'correlations', lag: 0, lagMs: 0 }),
      expect.objectContaining({ name: 'sign-ins', lag: 0, lagMs: 0 }),
      expect.objectContaining({ name: 'organization-history', lag: 0, lagMs: 0 }),
      expect.objectContaining({ name: 'traffic', lag: 0, lagMs: 0 }),
      expect.objectContaining({ name: 'member-security', lag: 0, lagMs: 0 }),
    ]);
  });

  it('asks the store only for its head once every projection is there, and counts again one event later', async () => {
    for (const command of organizationSetUp('acme', 1))
      await executeOrganizationCommand(store, catalogue, 'acme', command);
    const projector = readModels();
    projector.start();
    expect(await projector.waitForPosition((await store.headPosition()) ?? 0n, 10_000)).toBe(true);
    await projector.stop();

    const reads: string[] = [];
    const readAll = store.readAll.bind(store);
    store.readAll = (options) => {
      reads.push('readAll');
      return readAll(options);
    };
    expect((await projector.health()).projections.map((projection) => projection.lag)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(reads).toEqual([]);

    await store.append(
      'bulk',
      [
        {
          id: randomUUID(),
          type: 'Counted',
          data: {},
          metadata: { actor: 'test', correlationId: 'c', causationId: 'c' },
        },
      ],
      'no_stream',
    );
    expect((await projector.health()).projections.map((projection) => projection.lag)).toEqual([1, 1, 1, 1, 1, 1]);
    // The five projections stand at one checkpoint: one read counts for all of them.
    expect(reads).toEqual(['readAll']);
  });

  it('is not ready while an event has waited over 30 s for a projector in another process (it died or hangs), and ready once applied', async () => {
    for (const command of organizationSetUp('acme', 1))
      await executeOrganizationCommand(store, catalogue, 'acme', command);
    const reader = readModels();
    // Recorded a minute ago and applied by nobody: the projector elsewhere is not doing its work.
    expect(await reader.health()).toMatchObject({ ready: false, eventStore: { reachable: true } });

    const projector = readModels();
    projector.start();
    expect(await projector.waitForPosition((await store.headPosition()) ?? 0n, 10_000)).toBe(true);
    expect((await reader.health()).ready).toBe(true);
  });

  it('is unknown (null) when the store does not answer', async () => {
    const reader = readModels();
    await store.close();

    expect((await reader.health()).projections[0]).toMatchObject({ lag: null, lagMs: null, head: null });
  });
});
