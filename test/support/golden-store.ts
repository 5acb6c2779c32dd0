// The golden store (test/fixtures/golden-store): a store an earlier build wrote, and what it reads as (golden.json).
// Shared by the suites that turn it into another store (sealed, restored, copied) and expect it to read the same.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@jest/globals';
import Database from 'better-sqlite3';
import { Browser } from './browser.js';
import { httpClient, type HttpClient } from './http-client.js';

const fixture = join(import.meta.dirname, '../fixtures/golden-store');
export const scenario = JSON.parse(readFileSync(join(fixture, 'scenario.json'), 'utf8')) as {
  organizationIds: string[];
  userIds: string[];
  reader: string;
};
export const goldenFile = join(fixture, 'golden.json');

/** The store as the earlier build wrote it, from its statements (events.sql, the sqlite3 shell's .dump). */
export function restoreGoldenStore(dataDir: string): void {
  const db = new Database(join(dataDir, 'events.sqlite'));
  try {
    db.pragma('journal_mode = WAL');
    db.exec(readFileSync(join(fixture, 'events.sql'), 'utf8'));
  } finally {
    db.close();
  }
}

async function answerOf(path: string, client: HttpClient): Promise<unknown> {
  const response = await client.get(path);
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}: ${response.text}`);
  if (!path.includes('format=jsonl')) return response.body;
  return response.text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
}

const withoutKey = (object: Record<string, unknown>, key: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(object).filter(([name]) => name !== key));

/** What the fixture reads as, organization by organization, at every revision. */
export async function readings(client: HttpClient): Promise<Record<string, unknown>> {
  const answer = (path: string) => answerOf(path, client);
  const all: Record<string, unknown> = {};
  for (const id of scenario.organizationIds) {
    const state = (await answer(`/organizations/${id}/state`)) as { revision: number };
    const revisions = Array.from({ length: state.revision + 1 }, (_, revision) => revision);
    all[id] = {
      // Its `traffic` is this month's, by the clock, so not the same next month: the rest is the log's.
      readModel: withoutKey((await answer(`/organizations/${id}?minPosition=0`)) as Record<string, unknown>, 'traffic'),
      states: await Promise.all(
        revisions.map((revision) => answer(`/organizations/${id}/state?asOfRevision=${revision}`)),
      ),
      changes: await Promise.all(
        revisions.map((revision) => answer(`/organizations/${id}/history/changes?asOfRevision=${revision}`)),
      ),
      history: await answer(`/organizations/${id}/history/export?format=jsonl`),
      signInSecurity: await answer(`/organizations/${id}/history/sign-in-security`),
      usage: await answer(`/organizations/${id}/history/usage`),
      twoStep: await answer(`/organizations/${id}/two-step-sign-in`),
    };
  }
  return all;
}

/** A store the golden one became (sealed, restored, copied) reads as golden.json says, and its people sign in. */
export async function expectGolden(baseUrl: string): Promise<void> {
  expect(await readings(httpClient(baseUrl, { apiKey: scenario.reader }))).toEqual(
    JSON.parse(readFileSync(goldenFile, 'utf8')),
  );
  const browser = new Browser(baseUrl);
  await browser.open('/login');
  expect(
    (await browser.post('/login', { username: 'grace@golden.example', password: 'correct horse battery staple' }))
      .status,
  ).toBe(204);
}
