// Several builds measured in one run, each in a process of its own, in alternating order round after round:
// `--dist A,B` (this build's dist by default), `--rounds N`. The script runs itself with `--measure DIST` for each.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const argument = (name) => {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
};

/**
 * `measure(dist)` gives one build's figures (in the child), `describe(figures)` their line (in the parent); `header`
 * is printed first.
 */
export async function measureBuildsAlternated(scriptUrl, { measure, describe, header }) {
  const dist = argument('--measure');
  if (dist !== undefined) {
    console.log(JSON.stringify(await measure(dist)));
    return;
  }
  const here = path.dirname(fileURLToPath(scriptUrl));
  const builds = (argument('--dist') ?? path.join(here, '../../dist')).split(',');
  const rounds = Number(argument('--rounds') ?? 1);
  console.log(`${header}\n`);
  for (let round = 0; round < rounds; round += 1) {
    for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
      const run = spawnSync(process.execPath, [fileURLToPath(scriptUrl), '--measure', build], {
        encoding: 'utf8',
        env: process.env,
        maxBuffer: 64 * 1024 * 1024,
      });
      if (run.status !== 0) throw new Error(`${build}: ${run.stderr}`);
      console.log(`${build}: ${describe(JSON.parse(run.stdout.trim().split('\n').at(-1)))}`);
    }
  }
}
