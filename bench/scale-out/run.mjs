// What one Chorus node holds on the embedded store (figures for docs/scale-out.md).
//   npm run build:server && node bench/scale-out/run.mjs [--seconds 5] [--organizations 100000]
// With EVENTSTORE_CONNECTION_STRING set, the writes go to that EventStoreDB instead (the size part is the
// embedded store's either way): how the same node does against a server or a cluster, where Docker runs.
//
// 1. Writes: organization commands the way the API runs them (read the stream, fold, decide, append with
//    the expected revision), from 1, 16 and 64 concurrent callers, each on organizations of its own,
//    with the projector running in the same process as it does by default. Commands/s, events/s, and
//    how far the projector is behind when the writers stop.
// 2. Size: a log of N organizations (ten events each, written straight into the store's file as the
//    projections bench does), then the read models rebuilt through `ReadModels.rebuild()`: bytes per
//    organization on disk for the log and the read models, the rebuild's time, the process's memory.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { organizationStory as story } from '../support/organization-story.mjs';
import { createPlanCatalogue, decide, foldOrganization, organizationStream } from '../../dist/libs/domain/src/index.js';
import { openEventStore } from '../../dist/libs/event-store/src/index.js';
import { ReadModels } from '../../dist/libs/read-models/src/index.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' }, organizations: { type: 'string' } } });
const seconds = Number(values.seconds ?? 5);
const organizationCount = Number(values.organizations ?? 100_000);
const catalogue = createPlanCatalogue();
const format = (value) => Math.round(value).toLocaleString('en-US');
const megabytes = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const fileSize = (file) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};
/** A SQLite database's size: the file and its write-ahead log. */
const databaseSize = (file) => fileSize(file) + fileSize(`${file}-wal`);

/** An organization's first four commands, as a new customer's set-up sends them. */
const setUp = (id, index) => [
  { type: 'CreateOrganization', data: { id, name: `Organization ${index}` } },
  { type: 'AssignPlan', data: { line: 'classic', plan: index % 2 === 0 ? 'professional' : 'enterprise' } },
  { type: 'AddMember', data: { userId: `owner-${id}`, email: `owner-${id}@example.test`, role: 'owner' } },
  { type: 'AddSite', data: { siteId: `site-${id}`, name: 'Main site', hostname: `www.${id}.example` } },
];

/** Read, fold, decide, append with the expected revision: the API's command path without HTTP. */
async function execute(store, id, command) {
  const stream = organizationStream(id);
  const read = await store.readStream(stream);
  const history = read.found ? read.events.map((event) => ({ type: event.type, data: event.data })) : [];
  const events = decide(command, foldOrganization(history), { catalogue });
  const correlationId = randomUUID();
  const expected = read.found ? read.events.at(-1).revision : 'no_stream';
  await store.append(
    stream,
    events.map((event) => ({
      id: randomUUID(),
      type: event.type,
      data: event.data,
      metadata: { actor: 'bench', correlationId, causationId: correlationId },
    })),
    expected,
  );
  return events.length;
}

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING || undefined;
/** Organization ids of this run: a server keeps the streams of earlier runs. */
const run = randomUUID().slice(0, 8);

async function writes(writers) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-scale-out-'));
  const store = await openEventStore({ dataDir, connectionString });
  const readModels = ReadModels.open({ dataDir, store, catalogue });
  readModels.start();
  let commands = 0;
  let events = 0;
  const stopAt = performance.now() + seconds * 1000;
  const writer = async (w) => {
    for (let index = 0; performance.now() < stopAt; index += 1) {
      const id = `${run}-w${w}-${index}`;
      for (const command of setUp(id, index)) {
        const appended = await execute(store, id, command);
        events += appended;
        commands += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
  const elapsed = (performance.now() - started) / 1000;
  const health = await readModels.health();
  const caughtUpStarted = performance.now();
  await readModels.waitForPosition((await store.headPosition()) ?? 0n, 60_000);
  const catchUp = (performance.now() - caughtUpStarted) / 1000;
  await readModels.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
  const lag = health.projections.map((projection) => `${projection.name} ${projection.lag} events`).join(', ');
  console.log(
    `${String(writers).padStart(2)} writers: ${format(commands / elapsed)} commands/s = ${format(events / elapsed)} events/s ` +
      `(${format(commands)} commands in ${elapsed.toFixed(1)} s); projector behind when they stopped: ${lag}, caught up ${catchUp.toFixed(2)} s later`,
  );
}

async function size() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-scale-out-'));
  try {
    await (await openEventStore({ dataDir })).close();
    const eventsFile = path.join(dataDir, 'events.sqlite');
    const db = new Database(eventsFile);
    db.pragma('synchronous = OFF');
    const insert = db.prepare(
      'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const recordedAt = new Date().toISOString();
    db.transaction(() => {
      for (let i = 0; i < organizationCount; i += 1) {
        for (const [revision, event] of story.entries()) {
          const [type, data] = event(i);
          const correlationId = randomUUID();
          const metadata = JSON.stringify({
            actor: 'user:bench',
            correlationId,
            causationId: correlationId,
            commandType: type,
            sourceIp: '203.0.113.7',
          });
          insert.run(`organization-org-${i}`, revision, randomUUID(), type, JSON.stringify(data), metadata, recordedAt);
        }
      }
    })();
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();

    const store = await openEventStore({ dataDir });
    const readModels = ReadModels.open({ dataDir, store, catalogue });
    const started = performance.now();
    const rebuilt = await readModels.rebuild();
    const rebuildSeconds = (performance.now() - started) / 1000;
    const lookups = 10_000;
    const lookupStarted = performance.now();
    for (let n = 0; n < lookups; n += 1)
      readModels.organizations.getOrganization(`org-${(n * 7919) % organizationCount}`);
    const lookupMicros = ((performance.now() - lookupStarted) * 1000) / lookups;
    const memory = process.memoryUsage();
    await readModels.close();
    await store.close();
    const logBytes = databaseSize(eventsFile);
    const modelBytes = databaseSize(path.join(dataDir, 'read-models.sqlite'));
    console.log(`${format(organizationCount)} organizations, ${format(rebuilt.events)} events:`);
    console.log(
      `  event log   ${megabytes(logBytes)} = ${format(logBytes / organizationCount)} bytes per organization (${format(logBytes / rebuilt.events)} per event)`,
    );
    console.log(
      `  read models ${megabytes(modelBytes)} = ${format(modelBytes / organizationCount)} bytes per organization (organizations, memberships, correlation index)`,
    );
    console.log(
      `  rebuild of every read model: ${rebuildSeconds.toFixed(1)} s = ${format(rebuilt.events / rebuildSeconds)} events/s`,
    );
    console.log(`  getOrganization (read model + view): ${lookupMicros.toFixed(0)} µs per call`);
    console.log(
      `  process memory after the rebuild: rss ${megabytes(memory.rss)}, heap used ${megabytes(memory.heapUsed)}`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `node ${process.version}, ${seconds} s per write measurement, writes to ${connectionString === undefined ? 'the embedded store' : 'EventStoreDB'}, ` +
    `load average ${os
      .loadavg()
      .map((load) => load.toFixed(1))
      .join(' ')}`,
);
for (const writers of [1, 16, 64]) await writes(writers);
await size();
