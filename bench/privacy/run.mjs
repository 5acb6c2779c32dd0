// What sealing personal data costs, against the build before it, in one run (README.md beside this file):
// the add-member rate (each build beside Emmett, bench/peers), rebuilding every read model from the same log
// (the build before on it in clear; this build on it sealed, and on it in clear), and the erasure of a person with
// 10,000 events.
//   npm run build && node bench/privacy/run.mjs --before /path/to/the/build/before [--rounds 3] [--events 1000000]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    rounds: { type: 'string' },
    events: { type: 'string' },
    organizations: { type: 'string' },
    only: { type: 'string' },
  },
});
if (values.before === undefined)
  throw new Error('--before: the root of the build before (its dist/ built), e.g. a git worktree');
const before = path.resolve(values.before);
const rounds = Number(values.rounds ?? 3);
const events = Number(values.events ?? 1_000_000);
const organizations = Number(values.organizations ?? events / 10);
const wanted = (name) => values.only === undefined || values.only.split(',').includes(name);

/** `node <args>` in `cwd`: its standard output, once it exits 0. */
function node(args, { cwd = root, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const environment = {
      ...process.env,
      NODE_ENV: 'development',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      EVENTSTORE_CONNECTION_STRING: '',
      ...env,
    };
    const child = spawn(process.execPath, args, { cwd, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`node ${args.join(' ')} exited ${code}: ${err.slice(-2000)}`)),
    );
  });
}

const chorus = (build, dataDir, ...args) =>
  node([path.join(build, 'bin/chorus.js'), ...args, '--json'], { cwd: build, env: { DATA_DIR: dataDir } }).then(
    JSON.parse,
  );
const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];
const spread = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return `${sorted[0].toFixed(3)} / ${median(sorted).toFixed(3)} / ${sorted.at(-1).toFixed(3)}`;
};
/** Each build in turn, the first alternating by round, so neither always runs on a fresher machine. */
const inTurn = (round, first, second) => (round % 2 === 0 ? [first, second] : [second, first]);

if (wanted('add-member')) {
  // Each build's rate over Emmett's measured beside it: the peer is the yardstick that carries the machine's load.
  const ratios = [];
  for (let round = 0; round < rounds; round += 1) {
    const measured = {};
    for (const [name, server] of inTurn(
      round,
      ['before', path.join(before, 'dist/apps/api/src/main.js')],
      ['now', path.join(root, 'dist/apps/api/src/main.js')],
    )) {
      const out = await node(['bench/peers/run.mjs', '--rounds', '1', '--server', server]);
      measured[name] = Number(/round 1: .*chorus \/ emmett ([\d.]+)/.exec(out)?.[1]);
    }
    ratios.push(measured.now / measured.before);
    console.log(
      `add-member round ${round + 1}: Chorus / Emmett before ${measured.before.toFixed(3)}, now ${measured.now.toFixed(3)}, now / before ${(measured.now / measured.before).toFixed(3)}`,
    );
  }
  console.log(`add-member rate, now / before (target >= 0.9): ${spread(ratios)} (min / median / max of ${rounds})`);
}

if (wanted('rebuild')) {
  const dirs = {
    before: mkdtempSync(path.join(tmpdir(), 'chorus-bench-privacy-before-')),
    now: mkdtempSync(path.join(tmpdir(), 'chorus-bench-privacy-now-')),
    clear: mkdtempSync(path.join(tmpdir(), 'chorus-bench-privacy-clear-')),
  };
  try {
    // The same story into each build's own schema; this build's log is then sealed as a store from before it is.
    const generate = (build, dataDir) =>
      node(
        [
          '--input-type=module',
          '-e',
          `import { generateEventLog } from ${JSON.stringify(path.join(build, 'bench/support/event-log.mjs'))}; await generateEventLog(${JSON.stringify(dataDir)}, ${events}, ${organizations});`,
        ],
        { cwd: build },
      );
    await generate(before, dirs.before);
    await generate(root, dirs.now);
    // The same log kept in clear, as a store from before sealing is: this build's rebuild from plain events.
    await generate(root, dirs.clear);
    const sealStarted = performance.now();
    const sealed = await chorus(root, dirs.now, 'store:seal-personal-data', '--yes');
    console.log(
      `sealed ${sealed.rewritten.toLocaleString('en-US')} of ${sealed.examined.toLocaleString('en-US')} events in ${((performance.now() - sealStarted) / 1000).toFixed(1)} s (the command, start to end)`,
    );
    // Sealing leaves this build's store with read models (it verifies them before and after), and a rebuild that
    // replaces a model drops the old one's tables (with secure_delete here): the build before gets a model to replace
    // too, untimed, so that every timed rebuild replaces one.
    await chorus(before, dirs.before, 'projections:rebuild');
    await chorus(root, dirs.clear, 'projections:rebuild');
    const [ratios, sealedRatios] = [[], []];
    for (let round = 0; round < rounds; round += 1) {
      const seconds = {};
      // Each first in turn, so that none always runs on a fresher machine.
      const stores = [
        ['before', before],
        ['now', root],
        ['clear', root],
      ];
      for (const [name, build] of [...stores.slice(round % 3), ...stores.slice(0, round % 3)])
        seconds[name] = (await chorus(build, dirs[name], 'projections:rebuild')).elapsedMs / 1000;
      ratios.push(seconds.before / seconds.now);
      sealedRatios.push(seconds.clear / seconds.now);
      console.log(
        `rebuild round ${round + 1}: before ${seconds.before.toFixed(2)} s (in clear), now ${seconds.now.toFixed(2)} s (sealed), now ${seconds.clear.toFixed(2)} s (in clear); now / before ${(seconds.before / seconds.now).toFixed(3)}, sealed / clear ${(seconds.clear / seconds.now).toFixed(3)}`,
      );
    }
    console.log(
      `rebuild of every read model from ${events.toLocaleString('en-US')} events, now / before (target >= 0.8): ${spread(ratios)}`,
    );
    console.log(
      `rebuild from sealed events / from the same events in clear, this build (target >= 0.8): ${spread(sealedRatios)}`,
    );
  } finally {
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  }
}

if (wanted('erasure')) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-privacy-erasure-'));
  try {
    const out = await node(['bench/privacy/erasure.mjs'], { env: { DATA_DIR: dataDir } });
    console.log(out.trim());
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
