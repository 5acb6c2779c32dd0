// The chain's own costs on the embedded store: `store:verify` walking N chained events (target >= 100,000 events/s)
// and `store:chain` giving N events written before the chain their hashes. Both through the CLI's own functions.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../../dist');
const EVENTS = Number(process.argv[process.argv.indexOf('--events') + 1] || 1_000_000);
const { SqliteEventStore } = await import(path.join(dist, 'libs/event-store/src/index.js'));
const { verifyChain, chainLog } = await import(path.join(dist, 'apps/cli/src/store-tools/chain-log.js'));

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
  const verifyStart = process.hrtime.bigint();
  const verdict = await verifyChain(store);
  const verifySeconds = Number(process.hrtime.bigint() - verifyStart) / 1e9;
  await store.close();
  if (verdict.broken !== undefined || verdict.checked !== EVENTS)
    throw new Error(`not proven: ${JSON.stringify(verdict)}`);
  const rate = (seconds) => Math.round(EVENTS / seconds).toLocaleString('en');
  console.log(`${EVENTS.toLocaleString('en')} events`);
  console.log(`store:chain  ${chainSeconds.toFixed(2)} s, ${rate(chainSeconds)} events/s (${chained.chained} chained)`);
  console.log(
    `store:verify ${verifySeconds.toFixed(2)} s, ${rate(verifySeconds)} events/s (target >= 100,000: ${EVENTS / verifySeconds >= 100_000 ? 'met' : 'missed'})`,
  );
} finally {
  rmSync(directory, { recursive: true, force: true });
}
