// The data tools against what the machine does without them, in one run on one generated log:
// - store:backup against SQLite's own `VACUUM INTO` of the same two files;
// - store:restore (copy, erasures, rebuild and verify of every read model) against `projections:rebuild` alone;
// - store:copy from the embedded store into PostgreSQL against a raw `COPY` of the same rows into the same table;
// - store:verify --against, in events per second.
//   npm run build:server && node bench/backup/run.mjs [--events 1000000] [--rounds 1] [--only backup|restore|copy]
//   [--cpu-prof DIR]
// See README.md beside this file.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { generateEventLog } from '../support/event-log.mjs';
import { initCluster } from '../support/postgres-cluster.mjs';

const root = path.resolve(import.meta.dirname, '../..');
if (!existsSync(path.join(root, 'dist/apps/cli/src/main.js'))) {
  console.error('dist/ is missing: run `npm run build:server` first.');
  process.exit(1);
}
const { values } = parseArgs({
  options: {
    events: { type: 'string' },
    rounds: { type: 'string' },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const eventCount = Number(values.events ?? 1_000_000);
const rounds = Number(values.rounds ?? 1);
/** One measure alone (its baseline still beside it): a restore needs a backup, which is then taken untimed. */
const only = values.only;
if (only !== undefined && !['backup', 'restore', 'copy'].includes(only)) {
  console.error(`--only takes backup, restore or copy, not ${only}`);
  process.exit(1);
}
const measures = (name) => only === undefined || only === name;
/** Each timed command writes a CPU profile there. */
const profileArgs = values['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']];

const work = mkdtempSync(path.join(tmpdir(), 'chorus-bench-backup-'));
const env = (settings) => ({ PATH: process.env.PATH, NODE_ENV: 'test', SEED_DEMO: 'false', ...settings });

/** `chorus <args>`, timed from the outside: a process start is part of what an operator waits for. */
function chorus(args, settings) {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [...profileArgs, path.join(root, 'bin/chorus.js'), ...args, '--json'], {
    env: env(settings),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`chorus ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return { ms, output: JSON.parse(run.stdout) };
}

function timed(work) {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** A cluster of its own (bench/support/postgres-cluster.mjs), started on a free port. */
async function startCluster() {
  const { dir, run } = initCluster();
  const port = await new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  run('pg_ctl', [
    '-D',
    dir,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`,
    '-l',
    `${dir}/log`,
    '-w',
    'start',
  ]);
  const psql = (database, command, input) =>
    run(
      'psql',
      ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-v', 'ON_ERROR_STOP=1', '-q', '-c', command, database],
      input === undefined ? {} : { input, stdio: ['pipe', 'ignore', 'inherit'] },
    );
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    create: (database) => run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', database]),
    psql,
    stop: () => {
      run('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const source = path.join(work, 'source');
mkdirSync(source);
console.log(`generating ${eventCount.toLocaleString('en')} events...`);
await generateEventLog(source, eventCount, Math.max(1, Math.floor(eventCount / 10)));
// The keys' file and the read models, as a server leaves them.
chorus(['projections:rebuild'], { DATA_DIR: source });

const cluster = await startCluster();
const ratios = { backup: [], restore: [], copy: [], copySameTable: [] };
const rates = { verify: [] };
try {
  for (let round = 1; round <= rounds; round += 1) {
    const backups = path.join(work, `backups-${round}`);
    const vacuumTarget = path.join(work, `vacuum-${round}`);
    let vacuumMs;
    if (measures('backup')) {
      mkdirSync(vacuumTarget);
      vacuumMs = timed(() => {
        for (const file of ['events.sqlite', 'personal-keys.sqlite']) {
          const db = new Database(path.join(source, file), { readonly: true });
          db.prepare('VACUUM INTO ?').run(path.join(vacuumTarget, file));
          db.close();
        }
      });
    }
    const backup =
      measures('backup') || measures('restore')
        ? chorus(['store:backup', '--to', backups], { DATA_DIR: source })
        : undefined;
    if (measures('backup')) {
      ratios.backup.push(vacuumMs / backup.ms);
      console.log(`round ${round}: VACUUM INTO ${vacuumMs.toFixed(0)} ms, store:backup ${backup.ms.toFixed(0)} ms`);
    }
    if (measures('restore')) {
      const restored = path.join(work, `restored-${round}`);
      const restore = chorus(['store:restore', '--from', backup.output.folder, '--yes'], { DATA_DIR: restored });
      const rebuild = chorus(['projections:rebuild'], { DATA_DIR: restored });
      ratios.restore.push(restore.ms / rebuild.ms);
      console.log(
        `round ${round}: store:restore ${restore.ms.toFixed(0)} ms, projections:rebuild ${rebuild.ms.toFixed(0)} ms`,
      );
    }
    if (!measures('copy')) continue;

    const database = `copy_${round}`;
    const rawDatabase = `raw_${round}`;
    cluster.create(database);
    cluster.create(rawDatabase);
    const copy = chorus(['store:copy', '--from', source], {
      DATA_DIR: path.join(work, `node-${round}`),
      DATABASE_URL: cluster.url(database),
    });
    // The same rows, as text, into the same table with no index but its key: what PostgreSQL does at best.
    const rows = path.join(work, `rows-${round}.tsv`);
    const db = new Database(path.join(source, 'events.sqlite'), { readonly: true });
    const lines = [];
    // The chain's hash too, as bytea's hex in COPY's text (its backslash doubled); a column without one is \N.
    const escape = (value) =>
      value === null
        ? '\\N'
        : Buffer.isBuffer(value)
          ? `\\\\x${value.toString('hex')}`
          : String(value).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n');
    for (const row of db
      .prepare(
        'SELECT position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash FROM events ORDER BY position',
      )
      .raw()
      .iterate())
      lines.push(row.map(escape).join('\t'));
    db.close();
    writeFileSync(rows, `${lines.join('\n')}\n`);
    const text = readFileSync(rows);
    cluster.psql(
      rawDatabase,
      'CREATE TABLE events (position bigint PRIMARY KEY, stream_id text, revision bigint, event_id text, type text, data text, metadata text, recorded_at timestamptz, hash bytea)',
    );
    const rawMs = timed(() => cluster.psql(rawDatabase, '\\copy events FROM STDIN', text));
    ratios.copy.push(rawMs / copy.ms);
    // And into a table made like the log's own (its key and its two unique indexes): PostgreSQL's bulk path for
    // these rows with the guarantees a log needs.
    cluster.psql(database, 'CREATE TABLE events_again (LIKE events INCLUDING ALL)');
    const sameTableMs = timed(() => cluster.psql(database, '\\copy events_again FROM STDIN', text));
    ratios.copySameTable.push(sameTableMs / copy.ms);
    console.log(
      `round ${round}: store:copy into PostgreSQL ${copy.ms.toFixed(0)} ms, raw COPY ${rawMs.toFixed(0)} ms, ` +
        `raw COPY into the log's own table ${sameTableMs.toFixed(0)} ms`,
    );

    const verify = chorus(['store:verify', '--against', source], {
      DATA_DIR: path.join(work, `node-${round}`),
      DATABASE_URL: cluster.url(database),
    });
    if (!verify.output.equal) throw new Error(`the copy differs: ${JSON.stringify(verify.output)}`);
    rates.verify.push(eventCount / (verify.ms / 1000));
  }
} finally {
  cluster.stop();
  rmSync(work, { recursive: true, force: true });
}

const spread = (list) => list.map((value) => value.toFixed(3)).join(' / ');
console.log(`\n${eventCount.toLocaleString('en')} events, ${rounds} round(s):`);
console.log(`backup, VACUUM INTO / store:backup (target >= 0.5): ${spread(ratios.backup)}`);
console.log(`restore, store:restore / projections:rebuild (target <= 2): ${spread(ratios.restore)}`);
console.log(`copy into PostgreSQL, raw COPY / store:copy (target >= 0.5): ${spread(ratios.copy)}`);
console.log(`copy into PostgreSQL, raw COPY into the log's own table / store:copy: ${spread(ratios.copySameTable)}`);
console.log(`store:verify --against, events per second: ${rates.verify.map((rate) => rate.toFixed(0)).join(' / ')}`);
