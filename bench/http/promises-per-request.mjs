// Promises (and other async resources) a build creates per request, counted in the server by an
// async_hooks init hook (bench/support/count-async-resources.mjs): a figure that does not move with the
// machine's load, unlike CPU time. Under AsyncLocalStorage every promise also runs Node 20's init hook.
//   npm run build && node bench/http/promises-per-request.mjs [--server a/main.js,b/main.js] [--requests 2000]
//     [--paths health,read,members]
// See README.md beside this file ("Fifth round: fixed cost per request").
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../support/free-port.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { server: { type: 'string' }, requests: { type: 'string' }, paths: { type: 'string' } } });
const builds = (values.server ?? 'dist/apps/api/src/main.js').split(',').map((main) => path.resolve(root, main));
const requests = Number(values.requests ?? 2000);
const paths = (values.paths ?? 'health,read,members').split(',');
const counter = path.join(root, 'bench/support/count-async-resources.mjs');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const work = mkdtempSync(path.join(tmpdir(), 'chorus-promises-'));

/** One server of `main` with the counter, an API key and an organization on the Enterprise plan. */
async function start(main) {
  const port = await freePort();
  const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: mkdtempSync(path.join(work, 'data-')), HOST: '127.0.0.1', SEED_DEMO: 'false', EVENTSTORE_CONNECTION_STRING: '', PORT: String(port) };
  const cli = (...args) => execFileSync(process.execPath, [path.join(root, 'bin/chorus.js'), ...args, '--json'], { env, encoding: 'utf8' });
  const key = JSON.parse(cli('api-key:create', '--name', 'bench', '--scopes', 'organizations:read,organizations:write')).key;
  const child = spawn(process.execPath, ['--import', counter, main], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let lines = '';
  child.stderr.on('data', (chunk) => (lines += chunk));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${main} exited ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const post = (route, body) => fetch(`http://127.0.0.1:${port}${route}`, { method: 'POST', headers, body: JSON.stringify(body) }).then((response) => response.json());
  const { id } = await post('/organizations', { name: 'Bench promises' });
  await post(`/organizations/${id}/plan`, { line: 'classic', plan: 'enterprise' });
  /** The counts written since the last call (SIGUSR2 to the server). */
  const counts = async () => {
    lines = '';
    child.kill('SIGUSR2');
    while (!lines.includes('\n')) await sleep(20);
    return JSON.parse(lines.split('\n')[0]);
  };
  return { main, child, port, headers, id, counts };
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });
let added = 0;
/** One request of `kind`; refuses anything but a 2xx. */
function send(server, kind) {
  const members = kind === 'members';
  const route = { health: '/health', read: `/organizations/${server.id}`, members: `/organizations/${server.id}/members` }[kind];
  const body = members ? JSON.stringify({ email: `p-${added++}@bench.example`, role: 'member' }) : undefined;
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port: server.port, path: route, agent, method: members ? 'POST' : 'GET', headers: kind === 'health' ? {} : server.headers }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode < 300 ? resolve() : reject(new Error(`${kind}: ${response.statusCode}`))));
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

try {
  for (const main of builds) {
    const server = await start(main);
    console.log(path.relative(root, main));
    for (const kind of paths) {
      // The adds are fewer: an organization's member limit (Enterprise: 1000) bounds them.
      const count = kind === 'members' ? Math.min(requests, 400) : requests;
      for (let index = 0; index < 100; index += 1) await send(server, kind);
      await sleep(300);
      await server.counts();
      for (let index = 0; index < count; index += 4) await Promise.all([0, 1, 2, 3].map(() => send(server, kind)));
      await sleep(300);
      const counts = await server.counts();
      const per = (type) => ((counts[type] ?? 0) / count).toFixed(1);
      console.log(`  ${kind.padEnd(8)} ${count} requests: promises ${per('PROMISE')} per request, TickObjects ${per('TickObject')}, Immediates ${per('Immediate')}`);
    }
    server.child.kill('SIGTERM');
  }
} finally {
  await sleep(300);
  rmSync(work, { recursive: true, force: true });
}
