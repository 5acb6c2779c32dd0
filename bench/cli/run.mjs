// How long a `chorus` call takes, start to exit: `--version`, `--help`, and the read command `org:list`
// on a small store, against plain `node -e ''` (the floor any call pays). Each is run N times (default 10,
// after one warm-up) through /usr/bin/time: wall time (median, fastest) and CPU time (user + system,
// median), which holds better than wall time on a shared machine. Run `npm run build:server` first.
// Writes the figures into README.md beside this file, with the load average.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const bin = join(root, 'bin/chorus.js');
const runs = Number(process.argv[2] ?? 10);
const targets = { '--version': 0.3, 'org:list': 1.5 };

if (!existsSync(join(root, 'dist/apps/cli/src/main.js'))) {
  console.error('No build: run `npm run build:server` first.');
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'chorus-bench-cli-'));
const environment = { PATH: process.env.PATH, DATA_DIR: dataDir, SEED_DEMO: 'false', NODE_ENV: 'test' };

/** One call: wall seconds and CPU seconds, from /usr/bin/time's last line. */
function timed(args) {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S', process.execPath, ...args], { env: environment, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  const [wall, user, system] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, cpu: user + system };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

try {
  for (const name of ['Acme', 'Globex', 'Initech']) execFileSync(process.execPath, [bin, 'org:create', '--name', name], { env: environment, stdio: 'ignore' });
  const cases = [
    ['`node -e ""` (the floor)', ['-e', '']],
    ['`chorus --version`', [bin, '--version']],
    ['`chorus --help`', [bin, '--help']],
    ['`chorus org:list` (3 organizations)', [bin, 'org:list']],
  ];
  const rows = [];
  for (const [name, args] of cases) {
    timed(args);
    const samples = Array.from({ length: runs }, () => timed(args));
    const walls = samples.map((sample) => sample.wall);
    const row = { name, median: median(walls), fastest: Math.min(...walls), cpu: median(samples.map((sample) => sample.cpu)) };
    rows.push(row);
    console.log(`${name.padEnd(40)} median ${row.median.toFixed(2)} s  fastest ${row.fastest.toFixed(2)} s  CPU ${row.cpu.toFixed(2)} s`);
  }
  const load = loadavg().map((value) => value.toFixed(2)).join(', ');
  console.log(`load average ${load}`);
  const target = (name) => {
    const key = Object.keys(targets).find((candidate) => name.includes(`chorus ${candidate}`));
    return key === undefined ? '' : `${targets[key]} s`;
  };
  const table = [
    '| call | wall, median | wall, fastest | CPU, median | target |',
    '|---|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row.name} | ${row.median.toFixed(2)} s | ${row.fastest.toFixed(2)} s | ${row.cpu.toFixed(2)} s | ${target(row.name)} |`),
  ].join('\n');
  const readme = readFileSync(join(here, 'README.md'), 'utf8');
  const when = `Measured on ${new Date().toISOString().slice(0, 10)}, ${runs} runs each, load average ${load} (1, 5, 15 min) at the end`;
  const measured = `<!-- figures -->\n${when}, on this 2-core machine shared with other work:\n\n${table}\n<!-- /figures -->`;
  writeFileSync(join(here, 'README.md'), readme.replace(/<!-- figures -->[\s\S]*<!-- \/figures -->/, measured));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
