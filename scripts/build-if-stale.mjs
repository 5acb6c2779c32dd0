// `npm start` builds only what its sources have changed since the last build: the server (tsc) and
// the SPA (Vite) separately. A build records its time in a stamp file (`--mark <target>`,
// run by `npm run build:<target>` after it succeeds), so a failed build is redone at the next start.
//   node scripts/build-if-stale.mjs              builds each stale target with `npm run build:<target>`
//   node scripts/build-if-stale.mjs --mark web   records that `web` was just built
// Paths are relative to the working directory, which npm sets to the package root.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A file that is not part of the build: tests, test helpers (tsconfig.build.json's exclude), a package's own build
 * (libs/entitlements-client/dist, from `npm run pack:provider`), editors' litter. */
const notBuilt = (name) =>
  /\.spec\.tsx?$/.test(name) ||
  name === 'testing' ||
  name === 'node_modules' ||
  name === 'dist' ||
  name.startsWith('.');

const targets = {
  server: {
    sources: ['apps', 'libs', 'tsconfig.base.json', 'tsconfig.build.json', 'package-lock.json'],
    output: 'dist/apps/api/src/main.js',
  },
  web: {
    sources: ['web', 'package-lock.json'],
    output: 'dist/web/index.html',
  },
};

const stampOf = (target) => join('dist', '.stamps', target);

/** The most recently modified source file under the paths, with its time; undefined when there is none. */
function newestSource(paths) {
  let newest;
  const visit = (path) => {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return;
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) if (!notBuilt(entry)) visit(join(path, entry));
    } else if (newest === undefined || stats.mtimeMs > newest.mtimeMs) {
      newest = { path, mtimeMs: stats.mtimeMs };
    }
  };
  paths.forEach(visit);
  return newest;
}

/** Why the target needs a build, or undefined when its build is newer than every source. */
function staleness(target) {
  const { sources, output } = targets[target];
  if (!existsSync(output)) return `${output} is missing`;
  const stamp = statSync(stampOf(target), { throwIfNoEntry: false });
  if (stamp === undefined) return 'no build recorded';
  const newest = newestSource(sources);
  return newest !== undefined && newest.mtimeMs > stamp.mtimeMs ? `${newest.path} changed` : undefined;
}

function mark(target) {
  if (!(target in targets)) {
    console.error(`build-if-stale: unknown target ${target} (${Object.keys(targets).join(', ')})`);
    process.exit(2);
  }
  mkdirSync(join('dist', '.stamps'), { recursive: true });
  writeFileSync(stampOf(target), `${new Date().toISOString()}\n`);
}

function buildStale() {
  for (const target of Object.keys(targets)) {
    const reason = staleness(target);
    if (reason === undefined) {
      console.log(`build-if-stale: ${target} is up to date`);
      continue;
    }
    console.log(`build-if-stale: building ${target} (${reason})`);
    const run = spawnSync('npm', ['run', '--silent', `build:${target}`], {
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    if (run.status !== 0) {
      console.error(`build-if-stale: npm run build:${target} failed`);
      process.exit(run.status ?? 1);
    }
  }
}

const [option, target] = process.argv.slice(2);
if (option === '--mark') mark(target);
else if (option === undefined) buildStale();
else {
  console.error('usage: node scripts/build-if-stale.mjs [--mark server|web]');
  process.exit(2);
}
