// Chorus's PostgreSQL event store against what else would write the same events to the same server, in one
// run: raw inserts (one transaction per event, what a hand-written store does) and Emmett's PostgreSQL event
// store. One throw-away cluster from Debian's binaries, fsync and synchronous_commit on, a database each.
//   npm run build:server && (cd bench/postgres && npm install) && node bench/postgres/run.mjs [--rounds 3] [--seconds
// 5]
// See README.md beside this file.
import { existsSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { STREAM_DOES_NOT_EXIST } from '@event-driven-io/emmett';
import { getPostgreSQLEventStore } from '@event-driven-io/emmett-postgresql';
import pg from 'pg';
import { anEvent } from '../event-store/an-event.js';
import { initCluster } from '../support/postgres-cluster.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const built = path.join(root, 'dist/libs/event-store/src/postgres-event-store.js');
if (!existsSync(built)) {
  console.error(`${built} is missing: run \`npm run build:server\` first.`);
  process.exit(1);
}
const { PostgresEventStore } = await import(built);
const { values } = parseArgs({ options: { rounds: { type: 'string' }, seconds: { type: 'string' } } });
const rounds = Number(values.rounds ?? 3);
const seconds = Number(values.seconds ?? 5);
const MANY = 64;

async function freePort() {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const cluster = initCluster();
const port = await freePort();
// The server's defaults, durable: fsync on, synchronous_commit on; enough connections for 64 raw writers and the
// stores' pools.
cluster.run('pg_ctl', [
  '-D',
  cluster.dir,
  '-o',
  `-p ${port} -k ${cluster.dir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
  '-l',
  `${cluster.dir}/server.log`,
  '-w',
  'start',
]);
const urlOf = (database) => `postgres://postgres@127.0.0.1:${port}/${database}`;
for (const database of ['chorus', 'raw', 'emmett'])
  cluster.run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', database]);

const chorus = await PostgresEventStore.connect({ connectionString: urlOf('chorus') });
const raw = new pg.Pool({ connectionString: urlOf('raw'), max: MANY });
await raw.query(`CREATE TABLE events (
  position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, stream_id text NOT NULL, revision bigint NOT NULL, event_id text NOT NULL,
  type text NOT NULL, data text NOT NULL, metadata text NOT NULL, recorded_at timestamptz NOT NULL,
  UNIQUE (stream_id, revision), UNIQUE (stream_id, event_id))`);
const emmett = getPostgreSQLEventStore(urlOf('emmett'));

/** One append of one event to `stream` after `revision` (-1: a new stream), in each store's own terms. */
const writers = {
  chorus: async (stream, revision, index) => {
    await chorus.append(stream, [anEvent(index)], revision < 0 ? 'no_stream' : BigInt(revision));
  },
  raw: async (stream, revision, index) => {
    const event = anEvent(index);
    // Autocommit: one statement, one transaction, one WAL flush per event.
    await raw.query(
      'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, now())',
      [stream, revision + 1, event.id, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)],
    );
  },
  emmett: async (stream, revision, index) => {
    const event = anEvent(index);
    await emmett.appendToStream(stream, [{ type: event.type, data: event.data, metadata: event.metadata }], {
      expectedStreamVersion: revision < 0 ? STREAM_DOES_NOT_EXIST : BigInt(revision + 1),
    });
  },
};

/**
 * Events per second: `count` writers, each on its own new stream, appending one awaited event after another for
 * `seconds`.
 */
async function rate(kind, count, label) {
  const until = Date.now() + seconds * 1_000;
  const started = process.hrtime.bigint();
  let events = 0;
  await Promise.all(
    Array.from({ length: count }, async (_, writer) => {
      const stream = `${label}-${writer}`;
      for (let revision = -1; Date.now() < until; revision += 1) {
        await writers[kind](stream, revision, events);
        events += 1;
      }
    }),
  );
  return events / (Number(process.hrtime.bigint() - started) / 1e9);
}

const spread = (ratios) => {
  const sorted = [...ratios].sort((a, b) => a - b);
  return `${sorted[0].toFixed(3)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(3)} / ${sorted.at(-1).toFixed(3)}`;
};

const ratios = { oneRaw: [], manyRaw: [], oneEmmett: [], manyEmmett: [] };
try {
  for (let round = 0; round <= rounds; round += 1) {
    const rates = {};
    // The order turns each round, so no store always follows another's checkpoint or vacuum.
    const order = ['chorus', 'raw', 'emmett'].map((_, index, kinds) => kinds[(index + round) % kinds.length]);
    for (const count of [1, MANY]) {
      for (const kind of order) rates[`${kind}${count}`] = await rate(kind, count, `r${round}-${count}`);
    }
    const line = [1, MANY]
      .map(
        (count) =>
          `${count} writer${count > 1 ? 's' : ''}: ${['chorus', 'raw', 'emmett'].map((kind) => `${kind} ${rates[`${kind}${count}`].toFixed(0)}/s`).join(', ')}`,
      )
      .join('; ');
    console.log(`${round === 0 ? 'warm-up' : `round ${round}`}: ${line}`);
    if (round === 0) continue;
    ratios.oneRaw.push(rates.chorus1 / rates.raw1);
    ratios.manyRaw.push(rates[`chorus${MANY}`] / rates[`raw${MANY}`]);
    ratios.oneEmmett.push(rates.chorus1 / rates.emmett1);
    ratios.manyEmmett.push(rates[`chorus${MANY}`] / rates[`emmett${MANY}`]);
  }
  console.log(`1 writer, Chorus / raw inserts (one transaction per event) (target >= 0.8): ${spread(ratios.oneRaw)}`);
  console.log(
    `${MANY} writers, Chorus / raw inserts (one transaction per event) (target >= 3): ${spread(ratios.manyRaw)}`,
  );
  console.log(`1 writer, Chorus / Emmett's PostgreSQL event store (target >= 1.0): ${spread(ratios.oneEmmett)}`);
  console.log(
    `${MANY} writers, Chorus / Emmett's PostgreSQL event store (target >= 1.0): ${spread(ratios.manyEmmett)}`,
  );
} finally {
  await chorus.close();
  await raw.end();
  await emmett.close?.();
  cluster.run('pg_ctl', ['-D', cluster.dir, '-m', 'immediate', '-w', 'stop']);
  rmSync(cluster.dir, { recursive: true, force: true });
}
