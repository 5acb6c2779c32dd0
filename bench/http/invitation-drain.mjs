// How long the invitations of a burst of adds take to be mailed, after the adds were answered: the
// reaction's lag (docs/service.md, Invitations). One server, the embedded store, no SMTP_URL (the
// outbox, as bench/http runs it); 64 Classic Professional organizations, `--adds` adds at 32 connections,
// then the time until every owed invitation is in the outbox (one .eml per add).
//   npm run build && node bench/http/invitation-drain.mjs [--adds 512] [--server dist/apps/api/src/main.js] [--cpu-prof
// DIR]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from '../support/free-port.mjs';
import { cpuSeconds, cpuTimes } from '../support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { adds: { type: 'string' }, server: { type: 'string' }, 'cpu-prof': { type: 'string' } },
});
const adds = Number(values.adds ?? 512);
const serverMain = path.resolve(values.server ?? path.join(root, 'dist/apps/api/src/main.js'));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-drain-'));
const env = {
  ...process.env,
  NODE_ENV: 'development',
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  SEED_DEMO: 'false',
  EVENTSTORE_CONNECTION_STRING: '',
};
for (const setting of ['PROJECTIONS', 'LOG_LEVEL', 'SMTP_URL']) delete env[setting];

function cli(...args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'bin/chorus.js'), ...args, '--json'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`chorus ${args.join(' ')} exited ${code}`)),
    );
  });
}

// CPU time (ms) of the server's main thread (and its system part) and of all its threads.
const serverCpu = (pid) => {
  if (!existsSync(`/proc/${pid}/stat`)) return undefined;
  const main = cpuTimes(pid, pid);
  return { main: (main.user + main.system) * 1000, mainSystem: main.system * 1000, all: cpuSeconds(pid) * 1000 };
};

const outboxMails = () => {
  const outbox = path.join(dataDir, 'outbox');
  return existsSync(outbox) ? readdirSync(outbox).filter((name) => name.endsWith('.eml')).length : 0;
};

let server;
try {
  const key = JSON.parse(
    await cli('api-key:create', '--name', 'drain', '--scopes', 'organizations:read,organizations:write'),
  ).key;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profile =
    values['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', path.resolve(values['cpu-prof'])];
  server = spawn(process.execPath, [...profile, serverMain], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: 'ignore',
  });
  while (
    !(await fetch(`${url}/health`).then(
      (answer) => answer.ok,
      () => false,
    ))
  )
    await sleep(100);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const call = async (route, body) => {
    const answer = await fetch(`${url}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!answer.ok) throw new Error(`${route}: ${answer.status}`);
    return answer.json();
  };
  const ids = [];
  for (let index = 0; index < 64; index += 1) {
    const { id } = await call('/organizations', { name: `Drain ${index}` });
    await call(`/organizations/${id}/plan`, { line: 'classic', plan: 'professional' });
    ids.push(id);
  }
  let next = 0;
  const cpuBefore = serverCpu(server.pid);
  const started = performance.now();
  const result = await autocannon({
    url,
    connections: 32,
    amount: adds,
    sampleInt: 10,
    requests: [
      {
        method: 'POST',
        headers,
        setupRequest: (request) => {
          next += 1;
          return {
            ...request,
            path: `/organizations/${ids[next % ids.length]}/members`,
            body: JSON.stringify({ email: `drain-${next}@bench.example`, role: 'member' }),
          };
        },
      },
    ],
  });
  const answered = performance.now();
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
  const mailedAtAnswer = outboxMails();
  while (outboxMails() < adds) {
    if (performance.now() - answered > 120_000)
      throw new Error(`only ${outboxMails()} of ${adds} invitations mailed after 2 minutes`);
    await sleep(10);
  }
  const mailed = performance.now();
  const cpuAfter = serverCpu(server.pid);
  await sleep(2000);
  if (outboxMails() !== adds) throw new Error(`${outboxMails()} invitations mailed for ${adds} adds`);
  const seconds = (answered - started) / 1000;
  const all = (mailed - started) / 1000;
  console.log(
    `${adds} adds answered in ${seconds.toFixed(2)} s (${(adds / seconds).toFixed(0)}/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms); ` +
      `${mailedAtAnswer} invitations mailed by then, all ${adds} after ${all.toFixed(2)} s (${(adds / all).toFixed(0)} adds with their invitation/s, last ${((mailed - answered) / 1000).toFixed(2)} s after the last answer)`,
  );
  if (cpuBefore !== undefined && cpuAfter !== undefined) {
    const per = (key) => (cpuAfter[key] - cpuBefore[key]) / adds;
    console.log(
      `server CPU per add with its invitation: main thread ${per('main').toFixed(2)} ms (system ${per('mainSystem').toFixed(2)}), all threads ${per('all').toFixed(2)} ms`,
    );
  }
} finally {
  server?.kill('SIGTERM');
  await sleep(values['cpu-prof'] === undefined ? 500 : 3000);
  rmSync(dataDir, { recursive: true, force: true });
}
