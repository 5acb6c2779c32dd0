// Pushed changes and usage reports, measured on one built server (see README.md beside this file):
// - a plan change reaching 1,000 change streams held by another process: latency from the command's 2xx to
//   each stream's event (p50 / p99 / max), per round;
// - 10,000 open change streams: the server's resident memory they add, and GET /health/s with them / without;
// - usage reports per second, in batches of 1,000, each batch acknowledged only once durable.
//   npm run build && node bench/entitlements/streams.mjs [--rounds 3] [--seconds 5] [--subscribers 1000] [--streams
// 10000]
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { builtServerEnvironment, freePort, untilHealthy, chorusJson } from '../support/built-server.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    subscribers: { type: 'string' },
    streams: { type: 'string' },
  },
});
const rounds = Number(values.rounds ?? 3);
const seconds = Number(values.seconds ?? 5);
const subscribers = Number(values.subscribers ?? 1_000);
const streams = Number(values.streams ?? 10_000);
const changesPerRound = 20;
const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const residentMb = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const spread = (figures, digits = 3) => {
  const sorted = [...figures].sort((a, b) => a - b);
  return `${sorted[0].toFixed(digits)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(digits)} / ${sorted.at(-1).toFixed(digits)}`;
};

/** A subscriber process holding `count` streams, once all of them are open. */
async function subscriberProcess(url, key, count, organizationId) {
  const child = fork(path.join(import.meta.dirname, 'subscribers.mjs'), [url, key, String(count), organizationId], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the subscribers exited (${code}) before their streams were open`)));
  });
  return {
    report: () =>
      new Promise((resolve) => {
        child.once('message', (message) => resolve(message.arrivals));
        child.send('report');
      }),
    close: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.send('close');
      }),
  };
}

async function healthRate(url) {
  const result = await new Promise((resolve, reject) =>
    autocannon({ url: `${url}/health`, connections: 32, duration: seconds }, (error, done) =>
      error ? reject(error) : resolve(done),
    ),
  );
  if (result.errors > 0 || result.timeouts > 0 || result['2xx'] !== result.requests.total)
    throw new Error(`GET /health: ${result.requests.total - result['2xx']} answers not 2xx`);
  return result['2xx'] / result.duration;
}

/** A fresh server on a fresh DATA_DIR: each round starts from the same memory. */
async function startServer() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-entitlement-streams-'));
  const key = JSON.parse(
    await chorusJson(
      dataDir,
      'api-key:create',
      '--name',
      'bench',
      '--scopes',
      'entitlements:read,organizations:write,usage:write',
    ),
  ).key;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const limits = {
    ENTITLEMENT_STREAMS_MAX: String(streams + subscribers),
    HTTP_MAX_CONNECTIONS: String(streams + subscribers + 1_000),
  };
  const child = spawn(process.execPath, [path.join(root, 'dist/apps/api/src/main.js')], {
    cwd: root,
    env: { ...builtServerEnvironment(dataDir, port), ...limits },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await untilHealthy(child, url);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, key, pid: child.pid, stop };
}

/** Resident memory a bare node:http server adds for the same streams: the floor Node itself sets. */
async function plainServerMemory() {
  const port = await freePort();
  const child = fork(path.join(import.meta.dirname, 'plain-sse-server.mjs'), [String(port)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise((resolve) => child.once('message', resolve));
  const before = residentMb(child.pid);
  const holders = [];
  for (let opened = 0; opened < streams; opened += 5_000)
    holders.push(
      await subscriberProcess(`http://127.0.0.1:${port}`, 'none', Math.min(5_000, streams - opened), 'none'),
    );
  await sleep(2_000);
  const added = residentMb(child.pid) - before;
  for (const holder of holders) await holder.close();
  child.kill();
  return added;
}

const fanout = { p50: [], p99: [], max: [] };
const memory = [];
const floor = [];
const health = [];
const usage = [];
for (let round = 1; round <= rounds; round += 1) {
  floor.push(await plainServerMemory());
  const server = await startServer();
  try {
    const { url, key } = server;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = async (route, body) => {
      const answer = await fetch(`${url}${route}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (!answer.ok) throw new Error(`POST ${route}: ${answer.status} ${await answer.text()}`);
      return answer.json();
    };
    const { id } = await post('/organizations', { name: 'Bench' });
    await post(`/organizations/${id}/plan`, { line: 'classic', plan: 'professional' });

    // 10,000 open streams: memory added, and the server's own answers beside them.
    await healthRate(url); // warm-up: the first seconds of a fresh process run slower
    const without = await healthRate(url);
    const before = residentMb(server.pid);
    const holders = [];
    for (let opened = 0; opened < streams; opened += 5_000)
      holders.push(await subscriberProcess(url, key, Math.min(5_000, streams - opened), id));
    await sleep(2_000);
    memory.push(residentMb(server.pid) - before);
    const withStreams = await healthRate(url);
    health.push(withStreams / without);
    for (const holder of holders) await holder.close();

    // A plan change, alternating, seen by every stream of another process.
    const held = await subscriberProcess(url, key, subscribers, id);
    await sleep(500);
    const answered = [];
    for (let change = 0; change < changesPerRound; change += 1) {
      await post(`/organizations/${id}/plan`, {
        line: 'classic',
        plan: change % 2 === 0 ? 'enterprise' : 'professional',
      });
      answered.push(now());
      await sleep(250);
    }
    await sleep(1_000);
    const arrivals = await held.report();
    await held.close();
    const latencies = [];
    for (const [stream, times] of arrivals.entries()) {
      if (times.length !== changesPerRound)
        throw new Error(`stream ${stream} saw ${times.length} of ${changesPerRound} changes`);
      times.forEach((time, change) => latencies.push(time - answered[change]));
    }
    latencies.sort((a, b) => a - b);
    fanout.p50.push(percentile(latencies, 50));
    fanout.p99.push(percentile(latencies, 99));
    fanout.max.push(latencies.at(-1));

    // Usage reports, batches of 1,000 from 4 collectors at once, for `seconds`.
    let reports = 0;
    const until = Date.now() + seconds * 1_000;
    const started = now();
    await Promise.all(
      Array.from({ length: 4 }, async (_, collector) => {
        for (let batch = 0; Date.now() < until; batch += 1) {
          const occurredAt = new Date().toISOString();
          const body = {
            reports: Array.from({ length: 1_000 }, (_, index) => ({
              id: `c${collector}-b${batch}-${index}`,
              organizationId: id,
              quantity: 1,
              occurredAt,
            })),
          };
          reports += (await post('/usage', body)).accepted;
        }
      }),
    );
    usage.push(reports / ((now() - started) / 1_000));
    console.log(
      `round ${round}: ${streams} streams +${memory.at(-1).toFixed(0)} MB (a bare node:http server: +${floor.at(-1).toFixed(0)} MB), /health ${withStreams.toFixed(0)}/s with them, ${without.toFixed(0)}/s without; ` +
        `change to ${subscribers} streams p50 ${fanout.p50.at(-1).toFixed(1)} ms, p99 ${fanout.p99.at(-1).toFixed(1)} ms, max ${fanout.max.at(-1).toFixed(1)} ms; ` +
        `usage ${usage.at(-1).toFixed(0)} reports/s`,
    );
  } finally {
    await server.stop();
  }
}
console.log(
  `a change reaching ${subscribers} streams in another process, ms from the command's 2xx: p50 ${spread(fanout.p50, 1)}, p99 ${spread(fanout.p99, 1)} (target <= 100), max ${spread(fanout.max, 1)}`,
);
console.log(
  `${streams} open streams, resident memory added (MB, target <= 150): ${spread(memory, 0)}; a bare node:http server holding them: ${spread(floor, 0)}`,
);
console.log(`GET /health/s with ${streams} streams / without (target >= 0.9): ${spread(health)}`);
console.log(`usage reports/s, batches of 1,000, durable (target >= 20,000): ${spread(usage, 0)}`);
