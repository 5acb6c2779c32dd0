// `npm run pack:provider`: builds libs/entitlements-client (@chorus/openfeature-provider) to its own dist/ and packs it
// into dist/packages/, the tarball an integrator installs (`npm install
// /path/to/chorus-openfeature-provider-0.1.0.tgz`).
// Everything npm and tsc say goes to stderr; the last line on stdout is the tarball's absolute path.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const packageDir = join(root, 'libs', 'entitlements-client');
const destination = join(root, 'dist', 'packages');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(args, capture = false) {
  const result = spawnSync(npm, args, {
    cwd: packageDir,
    encoding: 'utf8',
    stdio: ['ignore', capture ? 'pipe' : process.stderr, 'inherit'],
  });
  if (result.status !== 0) {
    console.error(`pack:provider: npm ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`})`);
    process.exit(1);
  }
  return result.stdout;
}

mkdirSync(destination, { recursive: true });
// Built first, visibly, rather than by pack's prepack, whose output would mix with pack's JSON answer.
run(['run', 'build']);
const [packed] = JSON.parse(run(['pack', '--ignore-scripts', '--json', '--pack-destination', destination], true));
const tarball = join(destination, packed.filename);
if (!existsSync(tarball)) {
  console.error(`pack:provider: npm pack answered ${packed.filename}, which is not in ${destination}`);
  process.exit(1);
}
console.error(`pack:provider: ${packed.name}@${packed.version}, ${packed.entryCount} files, ${packed.size} bytes`);
console.log(tarball);
