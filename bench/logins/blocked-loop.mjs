// Does a main thread blocked in SQLite's synchronous = FULL commits slow argon2id checks running in
// libuv's pool? Alternating slices of 32 verifies in flight, alone (A) and each between two commits
// grouped per turn of the event loop as the store's GroupCommit does (B): one row each, a real fsync.
//   node bench/logins/blocked-loop.mjs     env: SLICES (6), SLICE_MS (2000)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import argon2 from 'argon2';
import Database from 'better-sqlite3';

const dir = mkdtempSync(path.join(tmpdir(), 'chorus-blocked-loop-'));
const db = new Database(path.join(dir, 'blocked.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, value TEXT)');
const insert = db.prepare('INSERT INTO rows (value) VALUES (?)');
let waiting = [];
let scheduled = false;
let commits = 0;
let blockedMs = 0;
/** Resolves once a commit holding this write is done; the writes of one turn share it. */
const commit = () =>
  new Promise((resolve) => {
    waiting.push(resolve);
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const batch = waiting;
      waiting = [];
      const started = performance.now();
      db.transaction(() => {
        for (let index = 0; index < batch.length; index += 1) insert.run('x'.repeat(300));
      })();
      blockedMs += performance.now() - started;
      commits += 1;
      for (const done of batch) done();
    });
  });

const password = 'bench-password-7Qx!vR2#';
const hash = await argon2.hash(password, { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
async function slice(withCommits, ms) {
  let verified = 0;
  commits = 0;
  blockedMs = 0;
  const until = performance.now() + ms;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < until) {
        if (withCommits) await commit();
        await argon2.verify(hash, password);
        if (withCommits) await commit();
        verified += 1;
      }
    }),
  );
  return { rate: verified / (ms / 1000), commits, blockedMs };
}

const sliceMs = Number(process.env.SLICE_MS ?? 2000);
const alone = [];
const blocked = [];
for (let index = 0; index < Number(process.env.SLICES ?? 6); index += 1) {
  const a = await slice(false, sliceMs);
  const b = await slice(true, sliceMs);
  alone.push(a.rate);
  blocked.push(b.rate);
  console.log(
    `slice ${index + 1}: alone ${a.rate.toFixed(1)}/s, between commits ${b.rate.toFixed(1)}/s (${b.commits} commits, ` +
      `${(b.blockedMs / b.commits).toFixed(1)} ms each, main thread blocked ${((100 * b.blockedMs) / sliceMs).toFixed(0)}% of the slice)`,
  );
}
const sum = (values) => values.reduce((total, value) => total + value, 0);
console.log(`verifies/s between commits / alone: ${(sum(blocked) / sum(alone)).toFixed(3)}`);
db.close();
rmSync(dir, { recursive: true, force: true });
