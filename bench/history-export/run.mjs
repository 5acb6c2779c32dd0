// The history export streams in constant memory: one organization with N events written
// straight into the embedded store, the built server started on it as its own process, then
// GET /organizations/:id/history/export?format=csv|jsonl read to the end with an audit:read API key
// while the server's resident memory (/proc/<pid>/status VmRSS) is sampled every 5 ms. The baseline
// is the same server's memory just before the download, in the same run; a flat export adds the same
// few MB whatever N, far less than the file it sends.
//   npm run build && node bench/history-export/run.mjs [--events 10000,100000,300000] [--format csv|jsonl]
// [--max-old-space-mb 48]
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { openEventStore } from '../../dist/libs/event-store/src/index.js';
import { builtServerEnvironment, freePort } from '../support/built-server.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { events: { type: 'string' }, format: { type: 'string' }, 'max-old-space-mb': { type: 'string' } },
});
const sizes = (values.events ?? '10000,100000,300000').split(',').map(Number);
const format = values.format ?? 'csv';
/**
 * A cap on the server's V8 old space: an export that held the history would die of it; a streamed one does not notice.
 */
const maxOldSpaceMb = values['max-old-space-mb'];
const serverEnvironment = (dataDir, port) => ({
  ...builtServerEnvironment(dataDir, port),
  ...(maxOldSpaceMb === undefined ? {} : { NODE_OPTIONS: `--max-old-space-size=${maxOldSpaceMb}` }),
});
const organizationId = 'bench-history';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** One long-lived organization: created, a plan, then members and sites coming and going, limits changed. */
function eventOf(revision) {
  if (revision === 0) return ['OrganizationCreated', { id: organizationId, name: 'Bench History' }];
  if (revision === 1) return ['PlanAssigned', { line: 'classic', plan: 'enterprise' }];
  const k = Math.floor(revision / 6);
  switch (revision % 6) {
    case 0:
      return [
        'MemberAdded',
        {
          userId: `user-${k}`,
          email: `person${k}@bench.example`,
          role: k % 4 === 0 ? 'admin' : 'member',
          chorusUser: false,
        },
      ];
    case 1:
      return ['SiteAdded', { siteId: `site-${k}`, name: `Site "${k}", =draft`, hostname: `site${k}.bench.example` }];
    case 2:
      return ['LimitsConfigured', { users: 50 + (k % 7) }];
    case 3:
      return ['MemberRemoved', { userId: `user-${k}` }];
    case 4:
      return ['SiteRemoved', { siteId: `site-${k}` }];
    default:
      return ['LimitsConfigured', { users: null }];
  }
}

async function writeHistory(dataDir, count) {
  await (await openEventStore({ dataDir })).close();
  const db = new Database(path.join(dataDir, 'events.sqlite'));
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const start = Date.parse('2030-01-01T00:00:00Z');
  db.transaction(() => {
    for (let revision = 0; revision < count; revision += 1) {
      const [type, data] = eventOf(revision);
      const correlationId = randomUUID();
      const metadata = JSON.stringify({
        actor: revision % 3 === 0 ? 'cli' : 'billing',
        correlationId,
        causationId: correlationId,
        commandType: type,
      });
      insert.run(
        `organization-${organizationId}`,
        revision,
        randomUUID(),
        type,
        JSON.stringify(data),
        metadata,
        new Date(start + revision * 1000).toISOString(),
      );
    }
  })();
  db.close();
}

const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

async function measure(count) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-history-'));
  const port = await freePort();
  try {
    await writeHistory(dataDir, count);
    const created = execFileSync(
      process.execPath,
      [path.join(root, 'bin', 'chorus.js'), 'api-key:create', '--name', 'bench', '--scopes', 'audit:read', '--json'],
      {
        cwd: root,
        env: builtServerEnvironment(dataDir, port),
      },
    );
    const { key } = JSON.parse(created.toString());
    const child = spawn(process.execPath, [path.join(root, 'dist/apps/api/src/main.js')], {
      cwd: root,
      stdio: 'ignore',
      env: serverEnvironment(dataDir, port),
    });
    try {
      // Ready: the projections have caught up, so nothing but the download runs while it is measured.
      for (;;) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`the server stopped before it was ready (${child.exitCode ?? child.signalCode})`);
        const ready = await fetch(`http://127.0.0.1:${port}/health`).then(
          (response) => response.json(),
          () => undefined,
        );
        if (ready?.ready) break;
        await sleep(200);
      }
      await sleep(500);
      const baseline = rssOf(child.pid);
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid))), 5);
      const started = performance.now();
      const response = await fetch(
        `http://127.0.0.1:${port}/organizations/${organizationId}/history/export?format=${format}`,
        { headers: { authorization: `Bearer ${key}` } },
      );
      if (response.status !== 200) throw new Error(`the export answered ${response.status}: ${await response.text()}`);
      let bytes = 0;
      let lines = 0;
      for await (const chunk of response.body) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) lines += 1;
      }
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      return { count, bytes, lines, seconds, baseline, peak };
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `history export (${format}), built server on the embedded store${maxOldSpaceMb === undefined ? '' : ` with --max-old-space-size=${maxOldSpaceMb}`}; RSS sampled every 5 ms`,
);
console.log('events | file | lines | time | events/s | RSS before | peak RSS | added by the export | added / file');
const results = [];
for (const count of sizes) {
  const result = await measure(count);
  results.push(result);
  const added = result.peak - result.baseline;
  console.log(
    `${count} | ${mb(result.bytes)} | ${result.lines} | ${result.seconds.toFixed(1)} s | ${Math.round(count / result.seconds)} | ${mb(result.baseline)} | ${mb(result.peak)} | ${mb(added)} | ${((added / result.bytes) * 100).toFixed(1)} %`,
  );
}
const [smallest, largest] = [results[0], results.at(-1)];
if (smallest !== undefined && largest !== undefined && largest !== smallest) {
  const ratio = (largest.peak - largest.baseline) / Math.max(1, smallest.peak - smallest.baseline);
  console.log(
    `${largest.count / smallest.count}x the events: ${ratio.toFixed(2)}x the memory the export adds (flat: about 1x), ${(largest.bytes / smallest.bytes).toFixed(1)}x the bytes sent`,
  );
}
