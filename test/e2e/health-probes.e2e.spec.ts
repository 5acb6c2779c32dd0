// /health/live and /health/ready (docs/service.md, Operations): live answers at once, ready is 503
// while the projections catch up with a backlog and 200 once they have; /metrics says the same.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { httpClient } from '../support/http-client.js';
import { seedEventLog } from '../support/seed-event-log.js';
import { startApp, type RunningApp } from '../support/start-app.js';

/** 8 events each: a backlog the projector needs a while to apply. */
const organizations = 4_000;

let dataDir: string;
let events: number;
let app: RunningApp | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-probes-'));
  events = await seedEventLog(dataDir, organizations);
}, 120_000);

afterAll(async () => {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function lagOf(metrics: string, projection: string): number {
  const line = metrics
    .split('\n')
    .find((entry) => entry.startsWith(`chorus_projection_lag_events{projection="${projection}"}`));
  return Number(line?.split(' ').at(-1));
}

describe('the probes during a catch-up', () => {
  it('answers live at once, ready 503 until the projections have caught up, then 200; /health unchanged', async () => {
    app = await startApp({ DATA_DIR: dataDir });
    const api = httpClient(app.baseUrl);

    const live = await api.get('/health/live');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ live: true });

    const answers: {
      status: number;
      metrics: string;
      body: { ready: boolean; projections: { name: string; state: string; lag: number }[] };
    }[] = [];
    for (;;) {
      const metrics = (await api.get('/metrics')).text;
      const ready = await api.get('/health/ready');
      answers.push({ status: ready.status, metrics, body: ready.body });
      if (ready.status === 200) break;
      expect((await api.get('/health/live')).status).toBe(200);
    }

    const waiting = answers.slice(0, -1);
    expect(waiting.length).toBeGreaterThan(0);
    for (const { status, body } of waiting) {
      expect(status).toBe(503);
      expect(body.ready).toBe(false);
      expect(body.projections.some((projection) => projection.state === 'catching-up')).toBe(true);
    }
    // The metrics scraped while waiting show the lag and the service not ready.
    const first = waiting[0]?.metrics ?? '';
    expect(first).toMatch(/^chorus_ready 0$/m);
    expect(lagOf(first, 'organizations')).toBeGreaterThan(0);

    const last = answers.at(-1);
    expect(last?.body).toMatchObject({ ready: true });
    expect(last?.body.projections.length).toBeGreaterThanOrEqual(2);
    for (const { state, lag } of last?.body.projections ?? [])
      expect({ state, lag }).toEqual({ state: 'live', lag: 0 });
    const metrics = (await api.get('/metrics')).text;
    expect(metrics).toMatch(/^chorus_ready 1$/m);
    expect(lagOf(metrics, 'organizations')).toBe(0);
    expect(metrics).toContain(`chorus_projection_checkpoint_position{projection="organizations"} ${events}`);

    // /health keeps its own report and codes.
    const health = await api.get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ live: true, ready: true, eventStore: { reachable: true } });
  }, 120_000);
});
