// How long a `chorus` call takes, start to exit, in the form the root README writes it (`./chorus ...`) beside
// `node bin/chorus.js ...` (the floor of the command line itself) in the same run: `--version`, `--help`, and the
// read command `org:list` on a small store, plus plain `node -e ''` (the floor any call pays) and, a few times,
// `npx chorus --version` (the form the README used to give). Each is run N times (default 10, after one warm-up)
// through /usr/bin/time: wall time (median, fastest) and CPU time (user + system, median), which holds better
// than wall time on a shared machine. Run `npm run build:server` first. Writes the figures into README.md beside
// this file, with the load average; the README's form must stay within 0.5 s of `node bin/chorus.js`.
// `--against DIR` (a built checkout of another commit, e.g. a `git worktree` of the one before a change) also times
// its `org:list` in turns with this one's, on the same store: the ratio of a change's effect, in the same run.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const bin = join(root, 'bin/chorus.js');
const { values: options, positionals } = parseArgs({
  options: { against: { type: 'string' } },
  allowPositionals: true,
});
const runs = Number(positionals[0] ?? 10);
const npxRuns = Math.min(runs, 3);
/** The README's form may cost at most this much more than `node bin/chorus.js` (seconds, median wall time). */
const allowance = 0.5;

if (!existsSync(join(root, 'dist/apps/cli/src/main.js'))) {
  console.error('No build: run `npm run build:server` first.');
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'chorus-bench-cli-'));
const environment = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  DATA_DIR: dataDir,
  SEED_DEMO: 'false',
  NODE_ENV: 'test',
};

/**
 * One call from the repository's root, as a reader types it: wall seconds and CPU seconds, from /usr/bin/time's last
 * line.
 */
function timed(command) {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %U %S', ...command], {
    cwd: root,
    env: environment,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`${command.join(' ')} exited ${result.status}: ${result.stderr}`);
  const [wall, user, system] = result.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, cpu: user + system };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

function row(name, samples) {
  const walls = samples.map((sample) => sample.wall);
  const measured = {
    name,
    runs: samples.length,
    median: median(walls),
    fastest: Math.min(...walls),
    cpu: median(samples.map((sample) => sample.cpu)),
  };
  console.log(
    `${name.padEnd(52)} median ${measured.median.toFixed(2)} s  fastest ${measured.fastest.toFixed(2)} s  CPU ${measured.cpu.toFixed(2)} s`,
  );
  return measured;
}

function measure(name, command, times = runs) {
  timed(command);
  return row(
    name,
    Array.from({ length: times }, () => timed(command)),
  );
}

/** Both forms of one call, taken in turns, so that a change of the machine's load falls on both alike. */
function measurePair(
  label,
  args,
  forms = [
    [`\`node bin/chorus.js ${label}\``, [process.execPath, 'bin/chorus.js', ...args]],
    [`\`./chorus ${label}\` (the README)`, ['./chorus', ...args]],
  ],
) {
  forms.forEach(([, command]) => timed(command));
  const samples = forms.map(() => []);
  for (let run = 0; run < runs; run += 1) forms.forEach(([, command], index) => samples[index].push(timed(command)));
  const [node, readme] = forms.map(([name], index) => row(name, samples[index]));
  return { label, node, readme };
}

try {
  for (const name of ['Acme', 'Globex', 'Initech'])
    execFileSync(process.execPath, [bin, 'org:create', '--name', name], { env: environment, stdio: 'ignore' });
  const floor = measure('`node -e ""` (the floor)', [process.execPath, '-e', '']);
  const pairs = [
    ['--version', ['--version']],
    ['--help', ['--help']],
    ['org:list (3 organizations)', ['org:list']],
  ].map(([label, args]) => measurePair(label, args));
  if (options.against !== undefined) {
    const other = join(options.against, 'bin/chorus.js');
    if (!existsSync(join(options.against, 'dist/apps/cli/src/main.js')))
      throw new Error(`${options.against} has no build`);
    pairs.push({
      against: true,
      ...measurePair(
        'org:list (3 organizations)',
        ['org:list'],
        [
          [`\`node bin/chorus.js org:list\` of ${options.against}`, [process.execPath, other, 'org:list']],
          ['`node bin/chorus.js org:list` of this checkout', [process.execPath, 'bin/chorus.js', 'org:list']],
        ],
      ),
    });
  }
  const npx = measure('`npx chorus --version` (before)', ['npx', 'chorus', '--version'], npxRuns);
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
  console.log(`load average ${load}`);

  const seconds = (value) => `${value.toFixed(2)} s`;
  const ratio = (row, base) => `${(row.median / base.median).toFixed(2)}×`;
  const signed = (difference) => `${difference < 0 ? '−' : '+'}${seconds(Math.abs(difference))}`;
  const rows = [
    `| ${floor.name} | ${seconds(floor.median)} | ${seconds(floor.fastest)} | ${seconds(floor.cpu)} |  |  |`,
    ...pairs.flatMap(({ node, readme }) => [
      `| ${node.name} | ${seconds(node.median)} | ${seconds(node.fastest)} | ${seconds(node.cpu)} | 1.00× |  |`,
      `| ${readme.name} | ${seconds(readme.median)} | ${seconds(readme.fastest)} | ${seconds(readme.cpu)} | ${ratio(readme, node)} | ${signed(readme.median - node.median)} |`,
    ]),
    `| ${npx.name}, ${npx.runs} runs | ${seconds(npx.median)} | ${seconds(npx.fastest)} | ${seconds(npx.cpu)} | ${ratio(npx, pairs[0].node)} | ${signed(npx.median - pairs[0].node.median)} |`,
  ];
  const within = pairs
    .filter((pair) => pair.against !== true)
    .every(({ node, readme }) => readme.median - node.median <= allowance);
  const table = [
    '| call | wall, median | wall, fastest | CPU, median | against `node bin/chorus.js` | more than it |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  const verdict = within
    ? `Every README call is within ${allowance} s of \`node bin/chorus.js\` (median wall time).`
    : `A README call is more than ${allowance} s slower than \`node bin/chorus.js\`: see the last column.`;
  console.log(verdict);
  const readme = readFileSync(join(here, 'README.md'), 'utf8');
  const when = `Measured on ${new Date().toISOString().slice(0, 10)}, ${runs} runs each, load average ${load} (1, 5, 15 min) at the end`;
  const measured = `<!-- figures -->\n${when}, on this 2-core machine shared with other work:\n\n${table}\n\n${verdict}\n<!-- /figures -->`;
  writeFileSync(join(here, 'README.md'), readme.replace(/<!-- figures -->[\s\S]*<!-- \/figures -->/, measured));
  if (!within) process.exitCode = 1;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
