// Where a login's CPU goes, by thread of the server: its main thread, libuv's pool (argon2id), V8's own
// threads (GC), and the load generator itself, each per login, from /proc/<pid>/task/*/stat (Linux).
// CPU time, not wall time, so it holds on a shared machine better than a CPU profile's shares do.
//   npm run build && node bench/logins/cpu-by-thread.mjs [SERVER_MAIN]
//     env: SECONDS_ (8), ROUNDS (2), RATE (fixed logins/s; default: as fast as 32 connections go),
//          NODE_ARGS (for the server, e.g. "--cpu-prof --cpu-prof-dir /tmp/p"), SERVER_ENV ("PROJECTIONS=off ...")
// 16 users, each from an address of their own (X-Forwarded-For, trusted from loopback), as bench/http's
// "an address per user" measure. Compare with `node bench/logins/blocked-loop.mjs` (argon2id alone).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, signInPageHeaders, untilHealthy } from '../support/built-server.mjs';
import { cpuTimes } from '../support/process-cpu.mjs';
import { password, registerUsers } from '../support/sign-in-server.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const server = path.resolve(process.argv[2] ?? path.join(root, 'dist/apps/api/src/main.js'));
const seconds = Number(process.env.SECONDS_ ?? 8);
const rounds = Number(process.env.ROUNDS ?? 2);
const users = 16;
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-cpu-by-thread-'));
const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, HOST: '127.0.0.1', TRUST_PROXY: 'loopback', SEED_DEMO: 'false', EVENTSTORE_CONNECTION_STRING: '' };
delete env.PROJECTIONS;
delete env.LOG_LEVEL;
const serverEnv = Object.fromEntries((process.env.SERVER_ENV ?? '').split(' ').filter(Boolean).map((pair) => pair.split('=')));
const usernames = await registerUsers(dataDir, 'login', users);

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const nodeArgs = (process.env.NODE_ARGS ?? '').split(' ').filter(Boolean);
const child = spawn(process.execPath, [...nodeArgs, server], { cwd: root, env: { ...env, ...serverEnv, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit'] });
const exited = new Promise((resolve) => child.once('exit', resolve));
try {
  await untilHealthy(child, url);
  const headers = await signInPageHeaders(url);

  const threads = () => {
    const times = {};
    for (const tid of readdirSync(`/proc/${child.pid}/task`)) {
      times[tid] = { name: readFileSync(`/proc/${child.pid}/task/${tid}/comm`, 'utf8').trim(), ...cpuTimes(child.pid, tid) };
    }
    return times;
  };
  const load = (duration) => {
    let next = 0;
    return new Promise((resolve, reject) =>
      autocannon(
        {
          url,
          connections: 32,
          duration,
          ...(process.env.RATE ? { overallRate: Number(process.env.RATE) } : {}),
          requests: [
            {
              method: 'POST',
              path: '/login',
              headers,
              setupRequest: (request) => {
                const user = (next += 1) % users;
                return { ...request, headers: { ...request.headers, 'x-forwarded-for': `192.0.2.${user + 1}` }, body: JSON.stringify({ username: usernames[user], password }) };
              },
            },
          ],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
  };

  await load(2);
  for (let round = 0; round < rounds; round += 1) {
    const before = threads();
    const started = performance.now();
    const clientBefore = process.cpuUsage();
    const result = await load(seconds);
    const client = process.cpuUsage(clientBefore);
    const after = threads();
    const wall = (performance.now() - started) / 1000;
    const logins = result['2xx'];
    if (result.non2xx > 0 || result.errors > 0) console.log(`  ${result.non2xx} non-2xx, ${result.errors} errors`);
    const groups = new Map();
    for (const [tid, now] of Object.entries(after)) {
      const then = before[tid] ?? { user: 0, system: 0 };
      // libuv's pool threads and V8's are all named "node" here: told apart by their work per login (an
      // argon2id check is ~26 ms of CPU, shared by the pool's 4 threads; V8's threads do well under 1 ms).
      const pool = now.name === 'node' && (now.user - then.user) / logins > 0.002;
      const name = tid === String(child.pid) ? 'main thread' : pool ? 'libuv pool (argon2id)' : `other threads (${now.name === 'node' ? 'V8' : now.name})`;
      const group = groups.get(name) ?? { user: 0, system: 0 };
      group.user += now.user - then.user;
      group.system += now.system - then.system;
      groups.set(name, group);
    }
    const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(`round ${round + 1}: ${logins} logins in ${wall.toFixed(1)} s = ${(logins / wall).toFixed(1)}/s, p50 ${result.latency.p50} ms, load ${load1}`);
    const perLogin = (value) => ((value * 1000) / logins).toFixed(2);
    for (const [name, group] of groups) console.log(`  ${name.padEnd(28)} user ${perLogin(group.user)} ms  system ${perLogin(group.system)} ms per login`);
    console.log(`  ${'load generator (autocannon)'.padEnd(28)} user ${perLogin(client.user / 1e6)} ms  system ${perLogin(client.system / 1e6)} ms per login`);
  }
} finally {
  child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
