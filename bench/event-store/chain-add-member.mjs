// What the event chain costs add-member over HTTP, against the same build without it, in one run: this commit is
// built twice from `git archive`, once as it is and once with the embedded store's hash replaced by a constant of
// the same 32 bytes (no SHA-256, the same rows, the same reads of the log's end), and bench/peers/run.mjs adds
// members through each build's server in turn, alternating which goes first.
//   node bench/event-store/chain-add-member.mjs [--runs 8]     (about a minute a run, after two builds)
// See README.md beside this file.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string' } } });
const runs = Number(values.runs ?? 8);
const root = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'chorus-bench-chain-'));

/** The committed tree, unpacked and built: `patch` edits it first. */
function build(name, patch) {
  const dir = path.join(work, name);
  execFileSync('mkdir', ['-p', dir]);
  execFileSync('sh', ['-c', `git -C "${root}" archive HEAD | tar -x -C "${dir}"`]);
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  patch?.(dir);
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: dir,
    stdio: 'inherit',
  });
  return path.join(dir, 'dist/apps/api/src/main.js');
}

function withoutChain(dir) {
  const file = path.join(dir, 'libs/event-store/src/sqlite-chain.ts');
  const source = readFileSync(file, 'utf8');
  const hashed = /: chainLink\(end\.previous, \{[^}]*\}\);/;
  if (!hashed.test(source)) throw new Error(`${file} no longer hashes where this bench expects: update the bench`);
  writeFileSync(
    file,
    source
      .replace(hashed, ': UNCHAINED;')
      .replace('export function linked(', 'const UNCHAINED = Buffer.alloc(32);\nexport function linked('),
  );
}

/** One round of bench/peers against this server: Chorus's adds per second, and the peer's beside it. */
function addMemberRate(server) {
  const run = spawnSync(
    process.execPath,
    [path.join(root, 'bench/peers/run.mjs'), '--rounds', '1', '--server', server],
    {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const round = /^round 1: chorus (\d+)\/s.*emmett (\d+)\/s/m.exec(run.stdout);
  if (run.status !== 0 || round === null) throw new Error(`bench/peers failed: ${run.stderr}${run.stdout}`);
  return { chorus: Number(round[1]), emmett: Number(round[2]) };
}

try {
  const builds = { chained: build('chained'), unchained: build('unchained', withoutChain) };
  const ratios = [];
  for (let run = 1; run <= runs; run += 1) {
    const order = run % 2 === 1 ? ['unchained', 'chained'] : ['chained', 'unchained'];
    const rates = {};
    for (const name of order) rates[name] = addMemberRate(builds[name]);
    const ratio = rates.chained.chorus / rates.unchained.chorus;
    ratios.push(ratio);
    console.log(
      `run ${run}: with the chain ${rates.chained.chorus} adds/s (Emmett beside it ${rates.chained.emmett}/s), ` +
        `without ${rates.unchained.chorus}/s (Emmett ${rates.unchained.emmett}/s): ${ratio.toFixed(3)}`,
    );
  }
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `add-member with the chain / without (target >= 0.95): median ${median.toFixed(3)} over ${runs} runs ` +
      `(${sorted[0].toFixed(3)} to ${sorted.at(-1).toFixed(3)})`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
