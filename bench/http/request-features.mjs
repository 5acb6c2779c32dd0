// What each of Chorus's per-request features costs GET /health: the built server as it is, then copies
// of the build with one feature taken out (or all of them), each next to the bare NestJS hello world,
// side by side in every round. Prints each one's rate and CPU time per request (from /proc), and the
// ratio to the hello world. A copy whose edit no longer applies to the build stops the bench.
//   npm run build:server && node bench/http/request-features.mjs [--rounds 5] [--seconds 4] [--connections 32]
//     [--server other/dist/apps/api/src/main.js,...]   (other builds, as built, in the same rounds: before/after)
// See README.md beside this file ("What the fixed cost is made of").
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from '../support/free-port.mjs';
import { cpuSeconds } from '../support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { rounds: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' }, server: { type: 'string' } } });
const rounds = Number(values.rounds ?? 5);
const seconds = Number(values.seconds ?? 4);
const connections = Number(values.connections ?? 32);

/** Each feature, as the edits of the compiled server that take it out. */
const features = {
  'request log line': [['apps/api/src/http/request-context.middleware.js', 'if (status >= 500)', 'if (status < 0)'], ['apps/api/src/http/request-context.middleware.js', "else\n                logger.info(line, 'request completed');", '']],
  'AsyncLocalStorage (log lines carry the correlation id)': [['apps/api/src/http/request-context.js', 'return storage.run(context, work);', 'return work();']],
  'security headers (helmet)': [['apps/api/src/http/request-context.middleware.js', 'applySecurityHeaders(securityHeaders(request.url), response);', '']],
  'HTTP metrics': [['apps/api/src/http/request-context.middleware.js', 'recordAnswer(request, response, nanoseconds / 1e9);', '']],
  'XSRF and SPA middleware': [['apps/api/src/create-app.js', 'mountBrowserEdge(app);', '']],
};
/** Not a feature: the dispatch of routes by first segment, taken out to see what it saves (not in "all of these"). */
const extras = { 'the routes grouped by first segment': [['apps/api/src/create-app.js', 'dispatchRoutesByFirstSegment(app);', '']] };
// Other builds (e.g. main's before a change), each measured as it is built, beside this one's variants.
const otherBuilds = (values.server ?? '').split(',').filter((main) => main !== '').map((main) => path.resolve(main));
const variants = [
  ...otherBuilds.map((main) => [`as built at ${main}`, main]),
  ['Chorus as built', []],
  ...Object.entries(features).map(([name, edits]) => [`without ${name}`, edits]),
  ['without all of these', Object.values(features).flat()],
  ...Object.entries(extras).map(([name, edits]) => [`without ${name}`, edits]),
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const work = mkdtempSync(path.join(tmpdir(), 'chorus-request-features-'));

/** A copy of the build with `edits` applied, resolving packages and `#imports` as the build does. */
function copyOfBuild(index, edits) {
  const copy = path.join(work, `build-${index}`);
  cpSync(path.join(root, 'dist'), path.join(copy, 'dist'), { recursive: true });
  cpSync(path.join(root, 'package.json'), path.join(copy, 'package.json'));
  symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'));
  for (const [file, from, to] of edits) {
    const target = path.join(copy, 'dist', file);
    const text = readFileSync(target, 'utf8');
    if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}: update this bench's edits`);
    writeFileSync(target, text.replace(from, to));
  }
  return path.join(copy, 'dist/apps/api/src/main.js');
}

async function start(args, env, url) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return child;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
}

function load(url) {
  return new Promise((resolve, reject) => autocannon({ url, connections, duration: seconds }, (error, result) => (error ? reject(error) : resolve(result))));
}

const servers = [];
try {
  const helloPort = await freePort();
  servers.push({ name: 'bare NestJS hello world', url: `http://127.0.0.1:${helloPort}/`, child: await start([path.join(root, 'bench/http/hello-world.mjs')], { PORT: String(helloPort) }, `http://127.0.0.1:${helloPort}/`) });
  for (const [index, [name, edits]] of variants.entries()) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/health`;
    const env = { NODE_ENV: 'development', DATA_DIR: mkdtempSync(path.join(work, 'data-')), HOST: '127.0.0.1', SEED_DEMO: 'false', EVENTSTORE_CONNECTION_STRING: '', PORT: String(port) };
    for (const setting of ['PROJECTIONS', 'LOG_LEVEL', 'TRUST_PROXY']) delete process.env[setting];
    servers.push({ name, url, child: await start([typeof edits === 'string' ? edits : copyOfBuild(index, edits)], env, url) });
  }
  for (const server of servers) await load(server.url); // warm-up
  for (let round = 0; round < rounds; round += 1) {
    for (const server of servers) {
      const before = cpuSeconds(server.child.pid);
      const result = await load(server.url);
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${server.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      (server.rates ??= []).push(result.requests.total / result.duration);
      (server.cpu ??= []).push(((cpuSeconds(server.child.pid) - before) * 1_000_000) / result.requests.total); // us per request
    }
    console.error(`round ${round + 1}/${rounds} done`);
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const [hello] = servers;
  console.log(`\nGET /health (the hello world: GET /), ${rounds} rounds of ${seconds} s, ${connections} connections; medians`);
  console.log(`${'server'.padEnd(62)} ${'req/s'.padStart(7)} ${'/ hello'.padStart(8)} ${'cpu us/req'.padStart(11)} ${'hello/this'.padStart(11)}`);
  for (const server of servers) {
    const rate = median(server.rates);
    const cpu = median(server.cpu);
    console.log(`${server.name.padEnd(62)} ${rate.toFixed(0).padStart(7)} ${(rate / median(hello.rates)).toFixed(3).padStart(8)} ${cpu.toFixed(0).padStart(11)} ${(median(hello.cpu) / cpu).toFixed(3).padStart(11)}`);
  }
} finally {
  for (const server of servers) server.child.kill('SIGTERM');
  await sleep(500);
  rmSync(work, { recursive: true, force: true });
}
