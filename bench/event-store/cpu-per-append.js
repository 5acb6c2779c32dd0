// CPU per append: one awaited writer, in rotating slices of 16 single-event writes, each way of writing
// to its own file (WAL, synchronous=FULL). Wall time is noise on a shared disk; CPU per write is not.
//   node bench/event-store/cpu-per-append.js [--seconds 30] [--dir /dev/shm] [--before OTHER/dist]
// Ways: raw (one autocommit INSERT), sql (the port's statements by hand: BEGIN IMMEDIATE, stream head,
// INSERT, COMMIT), turn (the same behind a setImmediate and a promise, as group commit waits), port (this
// build's SqliteEventStore.append) and, with --before, the same from another build's dist/.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { anEvent } from './an-event.js';

const { values } = parseArgs({ options: { seconds: { type: 'string' }, dir: { type: 'string' }, before: { type: 'string' } } });
const seconds = Number(values.seconds ?? 30);
const directory = mkdtempSync(join(values.dir ?? tmpdir(), 'chorus-cpu-per-append-'));
const SLICE = 16;
const storeOf = async (dist) => (await import(pathToFileURL(join(dist, 'libs/event-store/src/index.js')).href)).SqliteEventStore;
const thisBuild = fileURLToPath(new URL('../../dist', import.meta.url));
const { SqliteEventStore } = await import(pathToFileURL(join(thisBuild, 'libs/event-store/src/index.js')).href);

/** A file with the store's schema, opened raw with the store's durability. */
async function rawFile(name) {
  const file = join(directory, `${name}.sqlite`);
  await SqliteEventStore.open({ file }).close();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.defaultSafeIntegers(true);
  return db;
}

const ways = {};
{
  const db = await rawFile('raw');
  const insert = db.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  let revision = 0n;
  ways.raw = async () => {
    for (let index = 0; index < SLICE; index += 1) {
      const event = anEvent(index);
      insert.run('raw-1', revision, event.id, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata), new Date().toISOString());
      revision += 1n;
    }
  };
}
for (const name of ['sql', 'turn']) {
  const db = await rawFile(name);
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const head = db.prepare('SELECT max(revision), (SELECT 1 FROM deleted_streams WHERE stream_id = ?) FROM events WHERE stream_id = ?').raw(true);
  const insert = db.prepare('INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  let expected = -1n;
  const write = (index) => {
    const event = anEvent(index);
    const data = JSON.stringify(event.data);
    const metadata = JSON.stringify(event.metadata);
    const recordedAt = new Date().toISOString();
    begin.run();
    const [current, deleted] = head.get('sql-1', 'sql-1');
    if (deleted !== null || (current ?? -1n) !== expected) throw new Error('unexpected stream head');
    expected += 1n;
    insert.run('sql-1', expected, event.id, event.type, data, metadata, recordedAt);
    commit.run();
  };
  ways[name] =
    name === 'sql'
      ? async () => {
          for (let index = 0; index < SLICE; index += 1) write(index);
        }
      : async () => {
          for (let index = 0; index < SLICE; index += 1) await new Promise((resolve) => setImmediate(() => resolve(write(index))));
        };
}
for (const [name, Store] of [['port', SqliteEventStore], ...(values.before ? [['before', await storeOf(values.before)]] : [])]) {
  const store = Store.open({ file: join(directory, `${name}.sqlite`) });
  let expected = 'no_stream';
  ways[name] = async () => {
    for (let index = 0; index < SLICE; index += 1) expected = (await store.append('port-1', [anEvent(index)], expected)).nextExpectedRevision;
  };
}

const names = Object.keys(ways);
for (let round = 0; round < 50; round += 1) for (const name of names) await ways[name]();
const slices = Object.fromEntries(names.map((name) => [name, { wallMs: [], cpuUs: [] }]));
const started = performance.now();
let rounds = 0;
while (performance.now() - started < seconds * 1_000) {
  // The order rotates, so that no way always follows another's sync.
  for (let offset = 0; offset < names.length; offset += 1) {
    const name = names[(offset + rounds) % names.length];
    const cpu = process.cpuUsage();
    const wall = performance.now();
    await ways[name]();
    slices[name].wallMs.push(performance.now() - wall);
    const used = process.cpuUsage(cpu);
    slices[name].cpuUs.push(used.user + used.system);
  }
  rounds += 1;
}
rmSync(directory, { recursive: true, force: true });

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const medianRatio = (a, b) => median(a.map((value, index) => value / b[index]));
const sum = (list) => list.reduce((total, value) => total + value, 0);
console.log(`CPU per append in ${values.dir ?? tmpdir()}, ${rounds} rounds of ${SLICE}-write slices`);
console.log('way     CPU/write (median slice; mean)   wall/write   throughput / raw   CPU / raw (medians of slice ratios)');
for (const name of names) {
  const { wallMs, cpuUs } = slices[name];
  const row = [
    name.padEnd(7),
    `${(median(cpuUs) / SLICE).toFixed(1)}; ${(sum(cpuUs) / cpuUs.length / SLICE).toFixed(1)} us`.padEnd(32),
    `${((sum(wallMs) / wallMs.length / SLICE) * 1_000).toFixed(0)} us`.padEnd(12),
    medianRatio(slices.raw.wallMs, wallMs).toFixed(3).padEnd(18),
    medianRatio(cpuUs, slices.raw.cpuUs).toFixed(3),
  ];
  console.log(row.join(' '));
}
if (values.before) {
  console.log(`port / before: CPU ${medianRatio(slices.port.cpuUs, slices.before.cpuUs).toFixed(3)}, throughput ${medianRatio(slices.before.wallMs, slices.port.wallMs).toFixed(3)} (medians of slice ratios)`);
}
