// The add-member rate while backups run, against the rate without, in the same run: the built server adds new
// people with 4 writers at a time, in windows that alternate between no backup and `chorus store:backup` back to
// back. The store holds a generated log beside (--events), so each backup copies something.
//   npm run build:server && node bench/backup/during-writes.mjs [--events 100000] [--seconds 15] [--rounds 2]
//     [--backup-dir DIR] (the backups' parent folder; default: beside the data, on the same disk)
//     [--launch plain|idle] (plain: `chorus store:backup` as typed, which lowers itself once Node has started; idle:
//     started in the idle class from its first instruction, as docs/operations.md schedules it: `chrt --idle 0`)
// See README.md beside this file.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { builtServerEnvironment, chorusJson, freePort, untilHealthy } from '../support/built-server.mjs';
import { generateEventLog } from '../support/event-log.mjs';

const { values } = parseArgs({
  options: {
    events: { type: 'string' },
    seconds: { type: 'string' },
    rounds: { type: 'string' },
    'backup-dir': { type: 'string' },
    launch: { type: 'string' },
  },
});
const launch = values.launch ?? 'plain';
if (!['plain', 'idle'].includes(launch)) throw new Error(`--launch takes plain or idle, not ${launch}`);
/** The backup's command line: as typed, or as a scheduler that puts it in the idle class starts it. */
const backupCommand = (args) =>
  launch === 'idle'
    ? ['chrt', ['--idle', '0', 'nice', '-n', '19', process.execPath, ...args]]
    : [process.execPath, args];
const eventCount = Number(values.events ?? 100_000);
const seconds = Number(values.seconds ?? 15);
const rounds = Number(values.rounds ?? 2);
const WRITERS = 4;
const root = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'chorus-bench-backup-writes-'));
const dataDir = path.join(work, 'data');
// Where BACKUP_DIR should be: on another disk than DATA_DIR (docs/operations.md). Default: beside the data.
const backupDir =
  values['backup-dir'] === undefined
    ? path.join(work, 'backups')
    : mkdtempSync(path.join(values['backup-dir'], 'chorus-bench-backups-'));

await generateEventLog(dataDir, eventCount, Math.max(1, Math.floor(eventCount / 10)));
await chorusJson(dataDir, 'org:create', '--name', 'Acme');
await chorusJson(dataDir, 'org:plan', 'acme', '--line', 'classic', '--plan', 'enterprise');
const { key } = JSON.parse(
  await chorusJson(dataDir, 'api-key:create', '--name', 'bench', '--scopes', 'organizations:read,organizations:write'),
);
const port = await freePort();
const server = spawn(process.execPath, [path.join(root, 'dist/apps/api/src/main.js')], {
  env: builtServerEnvironment(dataDir, port),
  stdio: ['ignore', 'ignore', 'inherit'],
});
const url = `http://127.0.0.1:${port}`;
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
let next = 0;

/** Adds per second over `seconds`, WRITERS at a time; `beside` runs until the window closes. */
async function window(beside) {
  const until = Date.now() + seconds * 1000;
  let adds = 0;
  let backups = 0;
  const writer = async () => {
    while (Date.now() < until) {
      const answer = await fetch(`${url}/organizations/acme/members`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ email: `person-${(next += 1)}@example.com`, role: 'member' }),
      });
      if (answer.status !== 201) throw new Error(`add: ${answer.status} ${await answer.text()}`);
      adds += 1;
    }
  };
  const alongside = async () => {
    while (beside && Date.now() < until) {
      await new Promise((resolve, reject) => {
        const [command, args] = backupCommand([path.join(root, 'bin/chorus.js'), 'store:backup', '--to', backupDir]);
        const child = spawn(command, args, {
          env: builtServerEnvironment(dataDir, 0),
          stdio: 'ignore',
        });
        child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`store:backup exited ${code}`))));
      });
      backups += 1;
    }
  };
  const started = Date.now();
  await Promise.all([...Array.from({ length: WRITERS }, writer), alongside()]);
  const rate = adds / ((Date.now() - started) / 1000);
  // Deleted between windows, not during one: deleting is pruning's work, which runs once a day, and a synchronous rm
  // here stalled this process's own writers (20-36 ms a backup).
  await rm(backupDir, { recursive: true, force: true });
  return { rate, backups };
}

try {
  await untilHealthy(server, url);
  await fetch(`${url}/organizations/acme/limits`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ users: 1_000_000 }),
  });
  await window(false); // warm-up
  // Each window with backups between two without: the organization grows through the run, and each add costs a
  // little more than the one before, so a window compared only with the one before it would count that too.
  const ratios = [];
  let before = await window(false);
  for (let round = 1; round <= rounds; round += 1) {
    const during = await window(true);
    const after = await window(false);
    const without = (before.rate + after.rate) / 2;
    ratios.push(during.rate / without);
    console.log(
      `round ${round}: ${before.rate.toFixed(1)} and ${after.rate.toFixed(1)} adds/s without a backup around ` +
        `${during.rate.toFixed(1)} during ${during.backups} backups`,
    );
    before = after;
  }
  console.log(
    `add-member during backups (launched ${launch}) / without (target >= 0.8): ${ratios.map((ratio) => ratio.toFixed(3)).join(' / ')}`,
  );
} finally {
  server.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
  rmSync(backupDir, { recursive: true, force: true });
}
