// The chain's own costs on the embedded store: `store:verify` walking N chained events (target >= 100,000 events/s)
// and `store:chain` giving N events written before the chain their hashes. Both through the CLI's own functions.
// `--postgres`: `store:verify` on PostgreSQL (a throw-away cluster from Debian's binaries), over N events imported as
// `store:copy` writes them, chained on from the log's end.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../dist');
const eventsAt = process.argv.indexOf('--events');
const EVENTS = eventsAt === -1 ? 1_000_000 : Number(process.argv[eventsAt + 1]);
const POSTGRES = process.argv.includes('--postgres');
const { SqliteEventStore } = await import(path.join(dist, 'libs/event-store/src/index.js'));
const { verifyChain, chainLog } = await import(path.join(dist, 'apps/cli/src/store-tools/chain-log.js'));

if (POSTGRES) {
  await verifyOnPostgres();
  process.exit(0);
}

const directory = mkdtempSync(path.join(tmpdir(), 'chorus-chain-bench-'));
const file = path.join(directory, 'events.sqlite');
try {
  // Written as a build before the chain wrote them (no hash), in one transaction: what store:chain then chains.
  await SqliteEventStore.open({ file }).close();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const data = JSON.stringify({ userId: randomUUID(), email: { sealed: `v1.${'x'.repeat(120)}` }, role: 'member' });
  const metadata = JSON.stringify({ actor: 'system', correlationId: randomUUID(), causationId: randomUUID() });
  const revisions = new Map();
  db.transaction(() => {
    for (let index = 0; index < EVENTS; index += 1) {
      const stream = `organization-${index % 1000}`;
      const revision = (revisions.get(stream) ?? -1) + 1;
      revisions.set(stream, revision);
      insert.run(stream, revision, randomUUID(), 'MemberAdded', data, metadata, '2026-11-27T10:00:00.000Z');
    }
  })();
  db.close();

  const store = SqliteEventStore.open({ file });
  const chainStart = process.hrtime.bigint();
  const chained = await chainLog(store);
  const chainSeconds = Number(process.hrtime.bigint() - chainStart) / 1e9;
  const verifySeconds = await timedVerify(store);
  const rate = (seconds) => Math.round(EVENTS / seconds).toLocaleString('en');
  console.log(`${EVENTS.toLocaleString('en')} events`);
  console.log(`store:chain  ${chainSeconds.toFixed(2)} s, ${rate(chainSeconds)} events/s (${chained.chained} chained)`);
  console.log(
    `store:verify ${verifySeconds.toFixed(2)} s, ${rate(verifySeconds)} events/s (target >= 100,000: ${EVENTS / verifySeconds >= 100_000 ? 'met' : 'missed'})`,
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}

async function verifyOnPostgres() {
  const { PostgresEventStore } = await import(path.join(dist, 'libs/event-store/src/postgres-event-store.js'));
  const { initCluster } = await import('../support/postgres-cluster.mjs');
  const { freePort } = await import('../support/free-port.mjs');
  const port = await freePort();
  const cluster = initCluster();
  cluster.run('pg_ctl', [
    '-D',
    cluster.dir,
    '-o',
    `-p ${port} -k ${cluster.dir} -c listen_addresses=127.0.0.1`,
    '-l',
    `${cluster.dir}/server.log`,
    '-w',
    'start',
  ]);
  try {
    cluster.run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'chorus']);
    const store = await PostgresEventStore.connect({
      connectionString: `postgres://postgres@127.0.0.1:${port}/chorus`,
    });
    const data = JSON.stringify({ userId: randomUUID(), email: { sealed: `v1.${'x'.repeat(120)}` }, role: 'member' });
    const metadata = JSON.stringify({ actor: 'system', correlationId: randomUUID(), causationId: randomUUID() });
    const revisions = new Map();
    for (let position = 1; position <= EVENTS; position += 10_000) {
      const batch = [];
      for (let index = position; index < Math.min(position + 10_000, EVENTS + 1); index += 1) {
        const streamId = `organization-${index % 1000}`;
        const revision = (revisions.get(streamId) ?? -1n) + 1n;
        revisions.set(streamId, revision);
        batch.push({
          position: BigInt(index),
          streamId,
          revision,
          id: randomUUID(),
          type: 'MemberAdded',
          data,
          metadata,
          recordedAt: '2026-11-27T10:00:00.000Z',
        });
      }
      await store.importEvents(batch);
    }
    const verifySeconds = await timedVerify(store);
    console.log(`${EVENTS.toLocaleString('en')} events on PostgreSQL`);
    console.log(
      `store:verify ${verifySeconds.toFixed(2)} s, ${Math.round(EVENTS / verifySeconds).toLocaleString('en')} events/s`,
    );
  } finally {
    cluster.run('pg_ctl', ['-D', cluster.dir, '-m', 'immediate', '-w', 'stop']);
    rmSync(cluster.dir, { recursive: true, force: true });
  }
}

/** store:verify's walk over the whole log, in seconds; the store is closed after it, and every event must be proven. */
async function timedVerify(store) {
  const started = process.hrtime.bigint();
  const verdict = await verifyChain(store);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await store.close();
  if (verdict.broken !== undefined || verdict.checked !== EVENTS)
    throw new Error(`not proven: ${JSON.stringify(verdict)}`);
  return seconds;
}
