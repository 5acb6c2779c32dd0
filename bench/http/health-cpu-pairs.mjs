// GET /health's CPU per request for several builds (and the hello world's GET /), each driven in turn in
// a shuffled order in every round: per round, each one's CPU per request over the first build's. On a
// loaded machine a ratio of neighbours in one round moves less than either figure does between rounds.
//   npm run build:server && node bench/http/health-cpu-pairs.mjs --server before/main.js,dist/apps/api/src/main.js
//     [--rounds 40] [--seconds 1] [--connections 32] [--no-hello]
// See README.md beside this file ("Fifth round: fixed cost per request").
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from '../support/free-port.mjs';
import { cpuSeconds } from '../support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { server: { type: 'string' }, rounds: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' }, 'no-hello': { type: 'boolean' } },
});
const builds = (values.server ?? 'dist/apps/api/src/main.js').split(',').map((main) => path.resolve(root, main));
const rounds = Number(values.rounds ?? 40);
const seconds = Number(values.seconds ?? 1);
const connections = Number(values.connections ?? 32);
const hello = path.join(root, 'bench/http/hello-world.mjs');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const work = mkdtempSync(path.join(tmpdir(), 'chorus-health-pairs-'));
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

async function start(main) {
  const port = await freePort();
  const isHello = main === hello;
  const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: mkdtempSync(path.join(work, 'data-')), HOST: '127.0.0.1', SEED_DEMO: 'false', EVENTSTORE_CONNECTION_STRING: '', PORT: String(port) };
  for (const setting of ['PROJECTIONS', 'LOG_LEVEL', 'TRUST_PROXY']) delete env[setting];
  const child = spawn(process.execPath, [main], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}${isHello ? '/' : '/health'}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${main} exited ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return { name: isHello ? 'bare NestJS hello world (GET /)' : path.relative(root, main), child, url, cpu: [] };
}

async function load(server, duration) {
  const before = cpuSeconds(server.child.pid);
  const result = await new Promise((resolve, reject) =>
    autocannon({ url: server.url, connections, duration }, (error, done) => (error ? reject(error) : resolve(done))),
  );
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) throw new Error(`${server.url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return ((cpuSeconds(server.child.pid) - before) * 1_000_000) / result.requests.total; // us of CPU per request
}

const quantile = (list, q) => [...list].sort((a, b) => a - b)[Math.floor((list.length - 1) * q)];
const servers = [];
try {
  for (const main of values['no-hello'] ? builds : [...builds, hello]) servers.push(await start(main));
  console.log(`load average before: ${loadavg()}`);
  for (const server of servers) await load(server, 2);
  for (let round = 0; round < rounds; round += 1) {
    const order = servers.map((server) => ({ server, key: Math.random() })).sort((a, b) => a.key - b.key);
    for (const { server } of order) server.cpu.push(await load(server, seconds));
  }
  console.log(`${rounds} rounds of ${seconds} s, ${connections} connections, shuffled order in each round`);
  const first = servers[0].cpu;
  for (const server of servers) {
    const ratios = server.cpu.map((cpu, round) => cpu / first[round]);
    console.log(`${server.name}`);
    console.log(
      `  CPU us/request min ${quantile(server.cpu, 0).toFixed(0)} median ${quantile(server.cpu, 0.5).toFixed(0)}` +
        `   / the first build's in the same round: q1 ${quantile(ratios, 0.25).toFixed(3)} median ${quantile(ratios, 0.5).toFixed(3)} q3 ${quantile(ratios, 0.75).toFixed(3)}`,
    );
  }
  console.log(`load average after: ${loadavg()}`);
} finally {
  for (const server of servers) if (server.child.exitCode === null) server.child.kill('SIGTERM');
  await sleep(500);
  rmSync(work, { recursive: true, force: true });
}
