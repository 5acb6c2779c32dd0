// Two builds' CPU per add with its invitation, measured side by side AT THE SAME TIME: each round starts one
// server per build (embedded store, outbox, default settings, as invitation-drain.mjs), gives each 64 Classic
// Professional organizations, then drives both together (`--adds` adds each at 16 connections) until every
// invitation is in its outbox. Both see the same machine, so their ratio holds on a shared, loaded one where
// alternated runs differ by more than a change does. Prints each server's main-thread CPU per add (/proc).
//   npm run build && node bench/http/invitation-drain-pair.mjs --before other/dist/apps/api/src/main.js
//     [--after dist/apps/api/src/main.js] [--adds 2048] [--rounds 5]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from '../support/free-port.mjs';
import { cpuSeconds } from '../support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { before: { type: 'string' }, after: { type: 'string' }, adds: { type: 'string' }, rounds: { type: 'string' } } });
if (values.before === undefined) throw new Error('--before <dist/apps/api/src/main.js of the build to compare with> is required');
const adds = Number(values.adds ?? 2048);
const rounds = Number(values.rounds ?? 5);
const builds = [
  ['before', path.resolve(values.before)],
  ['after', path.resolve(values.after ?? path.join(root, 'dist/apps/api/src/main.js'))],
];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// CPU time (ms) of the server's main thread and of all its threads.
const serverCpu = (pid) => ({ main: cpuSeconds(pid, pid) * 1000, all: cpuSeconds(pid) * 1000 });

function cli(env, ...args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/chorus.js'), ...args, '--json'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`chorus ${args.join(' ')} exited ${code}`))));
  });
}

async function startServer(label, serverMain) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `chorus-bench-pair-${label}-`));
  const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, HOST: '127.0.0.1', SEED_DEMO: 'false', EVENTSTORE_CONNECTION_STRING: '' };
  for (const setting of ['PROJECTIONS', 'LOG_LEVEL', 'SMTP_URL']) delete env[setting];
  const key = JSON.parse(await cli(env, 'api-key:create', '--name', 'pair', '--scopes', 'organizations:read,organizations:write')).key;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [serverMain], { cwd: root, env: { ...env, PORT: String(port) }, stdio: 'ignore' });
  while (!(await fetch(`${url}/health`).then((answer) => answer.ok, () => false))) await sleep(100);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const call = async (route, body) => {
    const answer = await fetch(`${url}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`${label} ${route}: ${answer.status}`);
    return answer.json();
  };
  const ids = [];
  for (let index = 0; index < 64; index += 1) {
    const { id } = await call('/organizations', { name: `Pair ${index}` });
    await call(`/organizations/${id}/plan`, { line: 'classic', plan: 'professional' });
    ids.push(id);
  }
  const mailed = () => (existsSync(path.join(dataDir, 'outbox')) ? readdirSync(path.join(dataDir, 'outbox')).filter((name) => name.endsWith('.eml')).length : 0);
  return { label, server, dataDir, url, headers, ids, mailed };
}

async function drain(target) {
  let next = 0;
  const before = serverCpu(target.server.pid);
  const result = await autocannon({
    url: target.url,
    connections: 16,
    amount: adds,
    requests: [
      {
        method: 'POST',
        headers: target.headers,
        setupRequest: (request) => {
          next += 1;
          return { ...request, path: `/organizations/${target.ids[next % target.ids.length]}/members`, body: JSON.stringify({ email: `pair-${next}@bench.example`, role: 'member' }) };
        },
      },
    ],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${target.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const answered = performance.now();
  while (target.mailed() < adds) {
    if (performance.now() - answered > 120_000) throw new Error(`${target.label}: only ${target.mailed()} of ${adds} invitations mailed after 2 minutes`);
    await sleep(10);
  }
  const after = serverCpu(target.server.pid);
  return { main: (after.main - before.main) / adds, all: (after.all - before.all) / adds };
}

const ratios = [];
for (let round = 1; round <= rounds; round += 1) {
  const servers = [];
  try {
    // Started in turns of order, so that neither is always the first on a cold machine.
    for (const [label, main] of round % 2 === 1 ? builds : [...builds].reverse()) servers.push(await startServer(label, main));
    servers.sort((a, b) => (a.label === 'before' ? -1 : b.label === 'before' ? 1 : 0));
    await sleep(1000);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    const [before, after] = await Promise.all(servers.map(drain));
    ratios.push(after.main / before.main);
    console.log(
      `round ${round}, load ${load}: main thread CPU per add with its invitation: before ${before.main.toFixed(2)} ms, after ${after.main.toFixed(2)} ms ` +
        `(after/before ${(after.main / before.main).toFixed(3)}); all threads ${before.all.toFixed(2)} / ${after.all.toFixed(2)} ms`,
    );
  } finally {
    for (const { server } of servers) server.kill('SIGTERM');
    await sleep(1500);
    for (const { dataDir } of servers) rmSync(dataDir, { recursive: true, force: true });
  }
}
const sorted = [...ratios].sort((a, b) => a - b);
console.log(`after/before, main thread CPU per add: min ${sorted[0].toFixed(3)}, median ${sorted[Math.floor((sorted.length - 1) / 2)].toFixed(3)}, max ${sorted.at(-1).toFixed(3)} over ${rounds} rounds`);
