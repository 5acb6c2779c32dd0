// GET /organizations/:id against GET /health, for one or more builds side by side in every round: each
// build's rate and CPU time per request (from /proc) for both, and the read / health ratio by each.
// With --cpu-prof DIR: instead, each path gets a server of its own (the first build) with `node --cpu-prof`,
// driven for a fixed number of requests, so that each profile's busy time divided by that number is one
// path's cost per request (compare them with bench/support/profile-summary.mjs).
//   npm run build && node bench/http/read-health.mjs [--server a/main.js,b/main.js] [--rounds 5] [--seconds 4]
//     [--connections 32] [--cpu-prof DIR --requests 60000]
// See README.md beside this file ("Read / health, third round").
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from '../support/free-port.mjs';
import { cpuSeconds } from '../support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    'cpu-prof': { type: 'string' },
    requests: { type: 'string' },
  },
});
const builds = (values.server ?? 'dist/apps/api/src/main.js').split(',').map((main) => path.resolve(root, main));
const rounds = Number(values.rounds ?? 5);
const seconds = Number(values.seconds ?? 4);
const connections = Number(values.connections ?? 32);
const profileDir = values['cpu-prof'] === undefined ? undefined : path.resolve(values['cpu-prof']);
const requests = Number(values.requests ?? 60_000);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const work = mkdtempSync(path.join(tmpdir(), 'chorus-read-health-'));
for (const setting of ['PROJECTIONS', 'LOG_LEVEL', 'TRUST_PROXY']) delete process.env[setting];

/** A server of `main` on its own data: an API key, and an organization of 5 members to read (as run.mjs's). */
async function start(main, name, extraArgs = []) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: mkdtempSync(path.join(work, 'data-')), HOST: '127.0.0.1', SEED_DEMO: 'false', EVENTSTORE_CONNECTION_STRING: '', PORT: String(port) };
  const cli = (...args) => execFileSync(process.execPath, [path.join(root, 'bin/chorus.js'), ...args, '--json'], { env, encoding: 'utf8' });
  const apiKey = JSON.parse(cli('api-key:create', '--name', 'bench', '--scopes', 'organizations:read,organizations:write')).key;
  const child = spawn(process.execPath, [...extraArgs, main], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${main} exited ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const call = async (route, body) => {
    const response = await fetch(`${url}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const answer = await response.json();
    if (!response.ok) throw new Error(`POST ${route}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const { id } = await call('/organizations', { name: 'Bench read' });
  await call(`/organizations/${id}/plan`, { line: 'classic', plan: 'professional' });
  for (let index = 0; index < 5; index += 1) await call(`/organizations/${id}/members`, { email: `r-${index}@bench.example`, role: 'member' });
  return { name, child, health: { url: `${url}/health` }, read: { url: `${url}/organizations/${id}`, headers } };
}

async function load(pid, options) {
  const before = cpuSeconds(pid);
  const result = await new Promise((resolve, reject) => autocannon({ connections, ...options }, (error, done) => (error ? reject(error) : resolve(done))));
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) throw new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { rps: result.requests.total / result.duration, cpu: ((cpuSeconds(pid) - before) * 1_000_000) / result.requests.total };
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const spread = (list, digits) => {
  const sorted = [...list].sort((a, b) => a - b);
  return `${sorted[0].toFixed(digits)} / ${median(sorted).toFixed(digits)} / ${sorted.at(-1).toFixed(digits)}`;
};

const servers = [];
try {
  console.log(`load average before: ${loadavg()}`);
  if (profileDir !== undefined) {
    for (const pathName of ['health', 'read']) {
      const server = await start(builds[0], pathName, ['--cpu-prof', '--cpu-prof-dir', path.join(profileDir, pathName)]);
      servers.push(server);
      await load(server.child.pid, { ...server[pathName], duration: 2 }); // warm-up, in the profile too
      const measured = await load(server.child.pid, { ...server[pathName], amount: requests });
      console.log(`${pathName}: ${requests} requests (+ a 2 s warm-up), ${measured.rps.toFixed(0)}/s, ${measured.cpu.toFixed(0)} us CPU per request; profile in ${path.join(profileDir, pathName)}`);
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
  } else {
    for (const [index, main] of builds.entries()) servers.push(await start(main, `${index}: ${path.relative(root, main)}`));
    for (const server of servers) {
      await load(server.child.pid, { ...server.read, duration: 1 });
      await load(server.child.pid, { ...server.health, duration: 1 });
    }
    for (let round = 0; round < rounds; round += 1) {
      for (const server of servers) {
        const read = await load(server.child.pid, { ...server.read, duration: seconds });
        const health = await load(server.child.pid, { ...server.health, duration: seconds });
        (server.rounds ??= []).push({ read, health });
      }
      console.error(`round ${round + 1}/${rounds} done (load ${loadavg()})`);
    }
    console.log(`\n${rounds} rounds of ${seconds} s per measure, ${connections} connections; min / median / max`);
    for (const server of servers) {
      const r = server.rounds;
      console.log(`${server.name}`);
      console.log(`  GET /organizations/:id  ${spread(r.map((x) => x.read.rps), 0)} /s   CPU ${spread(r.map((x) => x.read.cpu), 0)} us/request`);
      console.log(`  GET /health             ${spread(r.map((x) => x.health.rps), 0)} /s   CPU ${spread(r.map((x) => x.health.cpu), 0)} us/request`);
      console.log(`  read / health: rate ${spread(r.map((x) => x.read.rps / x.health.rps), 3)}   CPU (health's / read's) ${spread(r.map((x) => x.health.cpu / x.read.cpu), 3)}`);
    }
    console.log(`load average after: ${loadavg()}`);
  }
} finally {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await sleep(500);
  rmSync(work, { recursive: true, force: true });
}
