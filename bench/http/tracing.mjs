// Add-member with tracing on (every trace sampled, exported over OTLP/HTTP to a local receiver) against off,
// two built servers side by side, each its own DATA_DIR, measured in alternating order in each round; the
// ratio is on / off in the same round, min/median/max over the rounds (target >= 0.9, docs/service.md, Tracing).
//   npm run build:server && node bench/http/tracing.mjs [--rounds 3] [--connections 32] [--protocol http/protobuf]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { buildRootOf } from '../support/built-server.mjs';
import { freePort } from '../support/free-port.mjs';
import { cpuSeconds } from '../support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string' },
    connections: { type: 'string' },
    protocol: { type: 'string' },
    server: { type: 'string' },
  },
});
const rounds = Number(values.rounds ?? 3);
const connections = Number(values.connections ?? 32);
const protocol = values.protocol ?? 'http/protobuf';
const serverMain = path.resolve(root, values.server ?? 'dist/apps/api/src/main.js');
/** As bench/http/run.mjs's add-member measure: 256 fresh Classic Professional organizations, 8 adds each. */
const organizationsPerMeasure = 256;
const addsPerOrganization = 8;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function run(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

async function startProcess(args, env, ready) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${stderr}`);
    await sleep(50);
  }
  return {
    pid: child.pid,
    stdout: () => stdout,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function answers(url) {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

const processes = [];

/** Under 2% of a core over a whole second, for every process (the invitations of the last adds mailed). */
async function settled() {
  if (!existsSync('/proc/self/stat')) return sleep(2000);
  const cpu = () => processes.map((child) => cpuSeconds(child.pid));
  let before = cpu();
  for (const since = Date.now(); ;) {
    await sleep(1000);
    const after = cpu();
    if (after.every((seconds, index) => seconds - before[index] < 0.02)) return;
    if (Date.now() - since > 300_000) throw new Error('still busy 5 minutes after a measure');
    before = after;
  }
}

let counter = 0;
const unique = () => `${process.pid}-${(counter += 1)}`;

// The OTLP/HTTP receiver, a process of its own (not competing with autocannon): reads each export, counts its
// bytes, answers 200; prints the totals on SIGTERM.
const receiverSource = `
const http = require('node:http');
let requests = 0, bytes = 0;
http.createServer((request, response) => {
  request.on('data', (chunk) => (bytes += chunk.length));
  request.on('end', () => { requests += 1; response.writeHead(200, { 'content-type': request.headers['content-type'] ?? 'application/x-protobuf' }).end(); });
}).listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => { console.log(JSON.stringify({ requests, bytes })); process.exit(0); });
`;

// Default settings: whatever this shell says about projections, logging or tracing does not apply.
for (const setting of Object.keys(process.env))
  if (['PROJECTIONS', 'LOG_LEVEL', 'TRUST_PROXY'].includes(setting) || setting.startsWith('OTEL_'))
    delete process.env[setting];

const directories = [];
try {
  const receiverPort = await freePort();
  const receiver = await startProcess(['-e', receiverSource], { PORT: String(receiverPort) }, async () => {
    try {
      await fetch(`http://127.0.0.1:${receiverPort}/`, { method: 'POST', body: '' });
      return true;
    } catch {
      return false;
    }
  });
  processes.push(receiver);

  const tracing = {
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
    OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
    OTEL_TRACES_SAMPLER: 'always_on',
  };
  const servers = {};
  for (const [name, extra] of [
    ['off', {}],
    ['on', tracing],
  ]) {
    const dataDir = mkdtempSync(path.join(tmpdir(), `chorus-bench-tracing-${name}-`));
    directories.push(dataDir);
    const env = {
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      EVENTSTORE_CONNECTION_STRING: '',
    };
    const cli = (...args) => run([path.join(buildRootOf(serverMain), 'bin/chorus.js'), ...args, '--json'], env);
    const apiKey = JSON.parse(
      await cli('api-key:create', '--name', 'bench', '--scopes', 'organizations:read,organizations:write'),
    ).key;
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    processes.push(
      await startProcess([serverMain], { ...env, ...extra, PORT: String(port) }, () => answers(`${url}/health`)),
    );
    servers[name] = { url, auth: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } };
  }

  async function call(server, method, route, body) {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: server.auth,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  }

  async function addMembers(server, perOrganization) {
    const ids = [];
    for (let index = 0; index < organizationsPerMeasure; index += 1) {
      const { id } = await call(server, 'POST', '/organizations', { name: `Bench ${unique()}` });
      await call(server, 'POST', `/organizations/${id}/plan`, { line: 'classic', plan: 'professional' });
      ids.push(id);
    }
    await settled();
    let next = 0;
    const result = await new Promise((resolve, reject) =>
      autocannon(
        {
          url: server.url,
          connections,
          amount: ids.length * perOrganization,
          sampleInt: 10,
          requests: [
            {
              method: 'POST',
              headers: server.auth,
              setupRequest: (request) => {
                const id = ids[next % ids.length];
                next += 1;
                return {
                  ...request,
                  path: `/organizations/${id}/members`,
                  body: JSON.stringify({ email: `m-${unique()}@bench.example`, role: 'member' }),
                };
              },
            },
          ],
        },
        (error, done) => (error ? reject(error) : resolve(done)),
      ),
    );
    if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
      throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
    return { rps: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99 };
  }

  // Warm-up, then the rounds, the order alternating so that neither always runs on a warmer machine.
  await addMembers(servers.off, 2);
  await addMembers(servers.on, 2);
  const ratios = [];
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
    const measured = {};
    for (const name of order) measured[name] = await addMembers(servers[name], addsPerOrganization);
    const ratio = measured.on.rps / measured.off.rps;
    ratios.push(ratio);
    const line = (name) =>
      `${measured[name].rps.toFixed(0)}/s (p50 ${measured[name].p50} ms, p99 ${measured[name].p99} ms)`;
    console.log(`round ${round + 1}: tracing off ${line('off')}, on ${line('on')}: on / off ${ratio.toFixed(3)}`);
  }
  await settled();
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(
    `add-member, tracing on (${protocol}, every trace) / off: ${sorted[0].toFixed(3)} / ${median.toFixed(3)} / ${sorted.at(-1).toFixed(3)} (min / median / max; target >= 0.9)`,
  );
  processes.shift();
  await receiver.stop();
  console.log(`the receiver took ${receiver.stdout().trim()}`);
} finally {
  for (const child of processes) await child.stop();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
}
