// CPU per GET /health of builds, alternating, 3 rounds: the server process's utime+stime (from /proc) over 20,000
// requests, after 3,000 to warm up. Less noisy than a rate on a shared machine: it counts the server's work, not the
// machine's. Usage: node bench/http/cpu-per-request.mjs <build root> [<build root> ...]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { builtServerEnvironment, freePort, untilHealthy } from '../support/built-server.mjs';

const builds = process.argv.slice(2);
const ticks = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};
const fire = (url, amount) =>
  new Promise((resolve, reject) =>
    autocannon({ url, connections: 32, amount }, (e, r) => (e ? reject(e) : resolve(r))),
  );
const results = Object.fromEntries(builds.map((b) => [b, []]));
for (let round = 0; round < 3; round += 1) {
  for (const build of builds) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cpuper-'));
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(build, 'dist/apps/api/src/main.js')], {
      cwd: build,
      env: builtServerEnvironment(dataDir, port),
      stdio: 'ignore',
    });
    const url = `http://127.0.0.1:${port}/health`;
    await untilHealthy(child, `http://127.0.0.1:${port}`);
    await fire(url, 3000);
    await new Promise((r) => setTimeout(r, 1500));
    const before = ticks(child.pid);
    const r = await fire(url, 20000);
    const after = ticks(child.pid);
    if (r.non2xx > 0 || r.errors > 0) throw new Error('non-2xx');
    results[build].push(((after - before) * 10_000) / 20000); // ticks are 10 ms: µs per request
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
    console.log(build, 'round', round + 1, results[build].at(-1).toFixed(1), 'µs CPU per request');
  }
}
for (const [build, values] of Object.entries(results))
  console.log(
    build,
    'median',
    values.sort((a, b) => a - b)[1].toFixed(1),
    'µs',
    values.map((v) => v.toFixed(1)).join(' / '),
  );
