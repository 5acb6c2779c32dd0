// Start-up with a large backlog: how soon the server answers, and how fast /health answers while the
// projections catch up, against the same server's /health once caught up (the baseline, same run).
//   npm run build:server && node bench/catch-up/run.mjs [--events 200000] [--interval-ms 10] [--server
// dist/apps/api/src/main.js]
// The server is the built one (`main.js`), started as its own process on a temp DATA_DIR; --server
// points at another build (e.g. of an older commit) to compare.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { builtServerEnvironment } from '../support/built-server.mjs';
import { generateEventLog } from '../support/event-log.mjs';
import { freePort } from '../support/free-port.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { events: { type: 'string' }, 'interval-ms': { type: 'string' }, server: { type: 'string' } },
});
const eventCount = Number(values.events ?? 200_000);
/** One /health request at a time, started every this many milliseconds (or as soon as the previous one answered). */
const intervalMs = Number(values['interval-ms'] ?? 10);
const serverMain = path.resolve(root, values.server ?? 'dist/apps/api/src/main.js');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function startServer(dataDir, port) {
  const child = spawn(process.execPath, [serverMain], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: builtServerEnvironment(dataDir, port),
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  return { child, exited, stderr: () => stderr };
}

/** GET /health: latency in ms and the report (undefined when the port does not answer yet). */
async function health(port) {
  const started = performance.now();
  try {
    const response = await fetch(`http://127.0.0.1:${port}/health`);
    const body = await response.json();
    return { ms: performance.now() - started, body };
  } catch {
    return undefined;
  }
}

function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? NaN;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1) ?? NaN };
}

const ms = (value) => `${value.toFixed(1)} ms`;
const describe = ({ n, p50, p95, p99, max }) =>
  `n=${n}  p50 ${ms(p50)}  p95 ${ms(p95)}  p99 ${ms(p99)}  max ${ms(max)}`;

/** Starts the server on dataDir, measures until ready (and `idleSamples` more once ready), stops it. */
async function run(dataDir, idleSamples) {
  const port = await freePort();
  const spawnedAt = performance.now();
  const server = startServer(dataDir, port);
  try {
    let first;
    while ((first = await health(port)) === undefined) {
      if (server.child.exitCode !== null) throw new Error(`the server exited: ${server.stderr()}`);
      await sleep(2);
    }
    const firstAnswerMs = performance.now() - spawnedAt;
    const catchingUp = [];
    let answer = first;
    let notReady = first.body.ready ? 0 : 1;
    while (!answer.body.ready) {
      const next = performance.now() + intervalMs;
      answer = await health(port);
      if (answer === undefined) throw new Error(`the server stopped answering: ${server.stderr()}`);
      catchingUp.push(answer.ms);
      if (!answer.body.ready) notReady += 1;
      await sleep(Math.max(0, next - performance.now()));
    }
    const readyMs = performance.now() - spawnedAt;
    const idle = [];
    for (let index = 0; index < idleSamples; index += 1) {
      const next = performance.now() + intervalMs;
      idle.push((await health(port)).ms);
      await sleep(Math.max(0, next - performance.now()));
    }
    const firstAnswer = { firstAnswerMs, firstAnswerLatencyMs: first.ms, firstAnswerReady: first.body.ready };
    return { ...firstAnswer, notReady, readyMs, catchingUp, idle, projections: answer.body.projections };
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

const emptyDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-catch-up-empty-'));
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-catch-up-'));
try {
  console.log(`server: ${path.relative(root, serverMain)}`);
  const empty = await run(emptyDir, 0);
  console.log(`empty store: first /health answer ${ms(empty.firstAnswerMs)} after spawn (the baseline start-up)`);

  const generatedAt = performance.now();
  await generateEventLog(dataDir, eventCount, Math.max(1, Math.round(eventCount / 10)));
  console.log(
    `generated ${eventCount.toLocaleString('en-US')} events in ${((performance.now() - generatedAt) / 1000).toFixed(1)} s`,
  );

  const backlog = await run(dataDir, 500);
  console.log(
    `backlog of ${eventCount.toLocaleString('en-US')} events: first /health answer ${ms(backlog.firstAnswerMs)} after spawn ` +
      `(${(backlog.firstAnswerMs / empty.firstAnswerMs).toFixed(2)}x the empty store's; it took ${ms(backlog.firstAnswerLatencyMs)}, ready: ${backlog.firstAnswerReady})`,
  );
  console.log(
    `ready (every projection caught up) ${(backlog.readyMs / 1000).toFixed(1)} s after spawn; ${backlog.notReady} answers said ready: false before`,
  );
  console.log(
    `checkpoints when ready: ${backlog.projections.map((projection) => `${projection.name} ${projection.checkpoint}`).join(', ')}`,
  );
  const during = percentiles(backlog.catchingUp);
  const idle = percentiles(backlog.idle);
  console.log(`/health during catch-up: ${describe(during)}`);
  console.log(`/health once caught up:  ${describe(idle)}`);
  console.log(
    `p99 ratio during/idle: ${(during.p99 / idle.p99).toFixed(1)}x; target: p99 during catch-up <= 100 ms -> ${during.p99 <= 100 ? 'met' : 'NOT met'}`,
  );
} finally {
  rmSync(emptyDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
