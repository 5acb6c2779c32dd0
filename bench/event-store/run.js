// Event-store benchmark: the SQLite adapter through the port against raw better-sqlite3 on the same
// schema and durability (WAL, synchronous=FULL), measured in the same run. Run after `npm run build:server`:
//   node bench/event-store/run.js [--seconds 6]
// The sync latency of a shared machine's disk drifts from one second to the next, so the port and its
// baseline are measured in short alternating slices: both see the same disk.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { anEvent } from './an-event.js';

const built = fileURLToPath(new URL('../../dist/libs/event-store/src/index.js', import.meta.url));
if (!existsSync(built)) {
  console.error(`${built} is missing: run \`npm run build:server\` first.`);
  process.exit(1);
}
const { SqliteEventStore } = await import(built);

const secondsOption = process.argv.indexOf('--seconds');
/** Wall time of each write comparison (the read comparison takes a few seconds more). */
const seconds = secondsOption > 0 ? Number(process.argv[secondsOption + 1]) : 6;
const WRITERS = 64;
const READ_PAGE = 1_000;

const directory = mkdtempSync(join(tmpdir(), 'chorus-bench-event-store-'));
const rawFile = join(directory, 'raw.sqlite');
const portFile = join(directory, 'port.sqlite');

// The same schema for both: the store creates it, raw better-sqlite3 then writes to that file format.
await SqliteEventStore.open({ file: rawFile }).close();
const raw = new Database(rawFile);
raw.pragma('journal_mode = WAL');
raw.pragma('synchronous = FULL');
const rawInsert = raw.prepare(
  'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
);
let rawRevision = 0;
/** One event, one transaction, one sync: what a store without group commit does per append. */
function insertRaw() {
  const event = anEvent(rawRevision);
  rawInsert.run(
    'raw-1',
    rawRevision,
    event.id,
    event.type,
    JSON.stringify(event.data),
    JSON.stringify(event.metadata),
    new Date().toISOString(),
  );
  rawRevision += 1;
}

const store = SqliteEventStore.open({ file: portFile });
const portRevisions = new Map();
async function appendThroughPort(stream) {
  const expected = portRevisions.get(stream) ?? 'no_stream';
  const result = await store.append(stream, [anEvent(portRevisions.size)], expected);
  portRevisions.set(stream, result.nextExpectedRevision);
}

/**
 * Alternates a slice of raw inserts and a slice through the port until `seconds` have passed. Rates are
 * the totals over the summed times; the ratio is the median over adjacent pairs of slices, which a sync
 * stall landing in one slice cannot swing.
 */
async function compare(rawSlice, portSlice) {
  const totals = { raw: { events: 0, ms: 0 }, port: { events: 0, ms: 0 } };
  const pairRatios = [];
  const started = performance.now();
  const timeRaw = () => {
    const sliceStarted = performance.now();
    for (let index = 0; index < rawSlice; index += 1) insertRaw();
    return performance.now() - sliceStarted;
  };
  const timePort = async () => {
    const sliceStarted = performance.now();
    const events = await portSlice();
    return { events, ms: performance.now() - sliceStarted };
  };
  while (performance.now() - started < seconds * 1_000) {
    // Which side goes first alternates too, so that neither always follows the other's syncs.
    const portFirst = pairRatios.length % 2 === 1;
    const portTimed = portFirst ? await timePort() : undefined;
    const rawMs = timeRaw();
    const { events: portEvents, ms: portMs } = portTimed ?? (await timePort());
    totals.raw.events += rawSlice;
    totals.raw.ms += rawMs;
    totals.port.events += portEvents;
    totals.port.ms += portMs;
    pairRatios.push(portEvents / portMs / (rawSlice / rawMs));
  }
  pairRatios.sort((a, b) => a - b);
  return {
    raw: (totals.raw.events / totals.raw.ms) * 1_000,
    port: (totals.port.events / totals.port.ms) * 1_000,
    ratio: pairRatios[Math.floor(pairRatios.length / 2)],
    pairs: pairRatios.length,
  };
}

// Warm-up: both files past their first pages, the statements prepared, the code optimised.
for (let index = 0; index < 100; index += 1) {
  insertRaw();
  await appendThroughPort('warm-up');
}

// 1 writer through the port: each append awaited before the next.
const oneWriter = await compare(16, async () => {
  for (let index = 0; index < 16; index += 1) await appendThroughPort('port-1');
  return 16;
});

// 64 concurrent writers through the port, each on its own stream with exact expected revisions.
const statsBefore = store.groupCommitStats();
const manyWriters = await compare(32, async () => {
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (let index = 0; index < 4; index += 1) await appendThroughPort(`port-${WRITERS}-${writer}`);
    }),
  );
  return WRITERS * 4;
});
const statsAfter = store.groupCommitStats();
const appendsPerCommit =
  (statsAfter.writes - statsBefore.writes) / Math.max(1, statsAfter.commits - statsBefore.commits);
raw.close();

// Sequential reads of everything the port wrote: readAll in pages against a raw scan of the same file.
const stored = Number((await store.headPosition()) ?? 0n);
function scanRaw() {
  const reader = new Database(portFile, { readonly: true });
  let count = 0;
  const rows = reader.prepare(
    'SELECT position, stream_id, revision, event_id, type, data, metadata, recorded_at FROM events ORDER BY position',
  );
  for (const row of rows.iterate()) {
    JSON.parse(row.data);
    JSON.parse(row.metadata);
    count += 1;
  }
  reader.close();
  return count;
}
async function readAllThroughPort() {
  let count = 0;
  let after = 0n;
  for (;;) {
    const page = await store.readAll({ fromPosition: after, maxCount: READ_PAGE });
    if (page.length === 0) return count;
    count += page.length;
    after = page[page.length - 1].position;
  }
}
const reads = { raw: { events: 0, ms: 0 }, port: { events: 0, ms: 0 } };
for (let round = 0; round < 3; round += 1) {
  let started = performance.now();
  reads.raw.events += scanRaw();
  reads.raw.ms += performance.now() - started;
  started = performance.now();
  reads.port.events += await readAllThroughPort();
  reads.port.ms += performance.now() - started;
}
const rawScan = (reads.raw.events / reads.raw.ms) * 1_000;
const portRead = (reads.port.events / reads.port.ms) * 1_000;
await store.close();
rmSync(directory, { recursive: true, force: true });

const format = (rate) => `${Math.round(rate).toLocaleString('en-US')} events/s`;
const verdict = (value, target) => (value >= target ? 'meets' : 'MISSES');
const line = (label, value, comparison = '') =>
  console.log(`  ${label.padEnd(50)} ${format(value).padStart(16)}  ${comparison}`);
const judged = (result, target) =>
  `${result.ratio.toFixed(3)}x raw, median of ${result.pairs} slice pairs (totals: ${(result.port / result.raw).toFixed(3)}x); target >= ${target}x: ${verdict(result.ratio, target)}`;

console.log(`event-store benchmark: WAL + synchronous=FULL in ${tmpdir()}, ${seconds} s per write comparison`);
console.log('1 writer: raw and port alternate in slices of 16 events');
line('raw better-sqlite3, 1 transaction per event', oneWriter.raw);
line('port, 1 writer, each append awaited', oneWriter.port, judged(oneWriter, 0.9));
console.log(`${WRITERS} writers: raw slices of 32 events, port slices of ${WRITERS} writers x 4 appends`);
line('raw better-sqlite3, 1 transaction per event', manyWriters.raw);
line(
  `port, ${WRITERS} concurrent writers`,
  manyWriters.port,
  `${judged(manyWriters, 3)}; ${appendsPerCommit.toFixed(1)} appends per commit`,
);
console.log(`sequential reads of the ${stored.toLocaleString('en-US')} events written (3 alternating passes)`);
line('raw scan (rows + JSON.parse of data and metadata)', rawScan);
line(`port readAll, pages of ${READ_PAGE}`, portRead, `${(portRead / rawScan).toFixed(2)}x raw scan`);
