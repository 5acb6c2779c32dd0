// A restart with a large backlog (docs/api.md, Operations: /health): the port opens at once and /health
// keeps answering while the projections catch up, `ready: false` with their progress, then
// `ready: true`. (How fast it answers meanwhile is measured in bench/catch-up, not asserted here.)
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { READ_MODELS, type ReadModels, type ReadModelsHealth } from '#read-models';
import { httpClient } from '../support/http-client.js';
import { seedEventLog } from '../support/seed-event-log.js';
import { startApp, type RunningApp } from '../support/start-app.js';

/** 8 events each: a 200,000-event backlog. */
const organizations = 25_000;

let dataDir: string;
let events: number;
let app: RunningApp | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-catch-up-'));
  events = await seedEventLog(dataDir, organizations);
}, 180_000);

afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('start-up with a 200,000-event backlog', () => {
  it('serves its port at once and answers /health throughout the catch-up: not ready with progress, then ready', async () => {
    expect(events).toBe(organizations * 8);
    app = await startApp({ DATA_DIR: dataDir });
    // Listening already, and the projections have not caught up.
    const states = app.app
      .get<ReadModels>(READ_MODELS)
      .statuses()
      .map((status) => status.state);
    const names = app.app.get<ReadModels>(READ_MODELS).projections.map((projection) => projection.name);
    expect(names).toEqual([
      'organizations',
      'correlations',
      'sign-ins',
      'organization-history',
      'traffic',
      'member-security',
    ]);
    expect(states).toEqual(names.map(() => 'catching-up'));

    const api = httpClient(app.baseUrl);
    const answers: { status: number; health: ReadModelsHealth }[] = [];
    for (;;) {
      const answer = await api.get('/health');
      answers.push({ status: answer.status, health: answer.body as ReadModelsHealth });
      if (answer.status === 200) break;
    }

    const waiting = answers.slice(0, -1);
    expect(waiting.length).toBeGreaterThan(1);
    for (const { status, health } of waiting) {
      expect(status).toBe(503);
      expect(health).toMatchObject({ live: true, ready: false, eventStore: { reachable: true } });
      expect(health.projections.some((projection) => projection.state === 'catching-up')).toBe(true);
    }
    // The first answers come long before the end of the log: whole pages of it are still to be read.
    const first = waiting[0]?.health.projections ?? [];
    // (The sign-ins model has nothing to do in this log: it may have caught up already.)
    expect(first.filter(({ name }) => name !== 'sign-ins').map(({ state, lag }) => ({ state, lag }))).toEqual(
      names.filter((name) => name !== 'sign-ins').map(() => ({ state: 'catching-up', lag: 1_000 })),
    );
    for (const { head, checkpoint } of first) expect((head ?? 0) - (checkpoint ?? 0)).toBeGreaterThan(events / 2);
    // Progress shows while it catches up: the organization checkpoint moves between answers.
    const checkpoints = new Set(waiting.map(({ health }) => health.projections[0]?.checkpoint));
    expect(checkpoints.size).toBeGreaterThan(1);

    const ready = answers.at(-1)?.health;
    expect(ready).toMatchObject({ live: true, ready: true });
    expect(ready?.projections.map(({ name, state, checkpoint, lag }) => ({ name, state, checkpoint, lag }))).toEqual(
      names.map((name) => ({ name, state: 'live', checkpoint: events, lag: 0 })),
    );
  }, 180_000);
});
