// A throw-away PostgreSQL cluster from Debian's binaries for the benches: initdb refuses root, so as root the cluster
// belongs to `postgres` and its tools run as it. `run(tool, args, options)` runs one of the newest version's tools.
import { chownSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function initCluster() {
  const versions = readdirSync('/usr/lib/postgresql').filter((version) =>
    existsSync(`/usr/lib/postgresql/${version}/bin/pg_ctl`),
  );
  const bin = `/usr/lib/postgresql/${versions.sort((a, b) => Number(b) - Number(a))[0]}/bin`;
  const asOwner = (tool, args) =>
    process.getuid() === 0
      ? ['runuser', ['-u', 'postgres', '--', `${bin}/${tool}`, ...args]]
      : [`${bin}/${tool}`, args];
  const run = (tool, args, options = {}) =>
    execFileSync(...asOwner(tool, args), { stdio: ['ignore', 'ignore', 'inherit'], ...options });
  const dir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-pg-'));
  if (process.getuid() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), -1);
  run('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  return { bin, dir, run };
}
