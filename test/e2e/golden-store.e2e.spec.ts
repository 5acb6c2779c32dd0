// A store written by an earlier build (test/fixtures/golden-store, every organization event type and a person's
// life in the product) is read by today's code into the same read models, states, changes and history sentences
// as the build it was recorded with (golden.json). A change of an event's shape adds an upcaster and keeps this
// green; a change of the words is a reviewed change of golden.json (GOLDEN_RECORD=1 rewrites it).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { startApp, type RunningApp } from '../support/start-app.js';

const fixture = join(import.meta.dirname, '../fixtures/golden-store');
const scenario = JSON.parse(readFileSync(join(fixture, 'scenario.json'), 'utf8')) as { organizationIds: string[]; userIds: string[]; reader: string };
const goldenFile = join(fixture, 'golden.json');
let dataDir: string;
let running: RunningApp;
let api: HttpClient;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'chorus-golden-'));
  copyFileSync(join(fixture, 'events.sqlite'), join(dataDir, 'events.sqlite'));
  running = await startApp({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs' });
  api = httpClient(running.baseUrl, { apiKey: scenario.reader });
}, 60_000);

afterAll(async () => {
  await running.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function answer(path: string): Promise<unknown> {
  const response = await api.get(path);
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.text}`);
  if (!path.includes('format=jsonl')) return response.body;
  return response.text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
}

const withoutKey = (object: Record<string, unknown>, key: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));

/** What the fixture reads as, organization by organization, at every revision. */
async function readings(): Promise<Record<string, unknown>> {
  const all: Record<string, unknown> = {};
  for (const id of scenario.organizationIds) {
    const state = (await answer(`/organizations/${id}/state`)) as { revision: number };
    const revisions = Array.from({ length: state.revision + 1 }, (_, revision) => revision);
    all[id] = {
      // Its `traffic` is this month's, by the clock, so not the same next month: the rest is the log's.
      readModel: withoutKey((await answer(`/organizations/${id}?minPosition=0`)) as Record<string, unknown>, 'traffic'),
      states: await Promise.all(revisions.map((revision) => answer(`/organizations/${id}/state?asOfRevision=${revision}`))),
      changes: await Promise.all(revisions.map((revision) => answer(`/organizations/${id}/history/changes?asOfRevision=${revision}`))),
      history: await answer(`/organizations/${id}/history/export?format=jsonl`),
      signInSecurity: await answer(`/organizations/${id}/history/sign-in-security`),
      usage: await answer(`/organizations/${id}/history/usage`),
    };
  }
  return all;
}

describe('the golden store', () => {
  it('reads into the same read models, states, changes and history as the build that recorded golden.json', async () => {
    const read = await readings();
    if (process.env.GOLDEN_RECORD === '1') writeFileSync(goldenFile, `${JSON.stringify(read, null, 2)}\n`);
    expect(read).toEqual(JSON.parse(readFileSync(goldenFile, 'utf8')));
  });

  it('is read in current shapes: an owner reset from before the rule reads as one made by an owner alone', async () => {
    const [, grace] = scenario.userIds;
    const stream = await running.store.readStream(`user-${grace}`);
    const reset = stream.found ? stream.events.find((event) => event.type === 'SecondFactorsReset') : undefined;
    expect(reset?.metadata.schemaVersion).toBeUndefined();
    expect(reset?.data).toMatchObject({ authority: 'owner-alone' });
  });
});
