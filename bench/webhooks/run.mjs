// Webhooks from the built server (embedded store, default settings) to a receiver in this process, three measures:
//   latency: 100 endpoints (10 organizations, 10 each), one command at a time on each organization in turn: from
//            the command's 2xx to each endpoint's request, p50 / p99;
//   rate:    deliveries per second from one node, 100 endpoints catching up on the `--burst` changes (20) each of
//            their organizations recorded while they were off;
//   replay:  one endpoint from the beginning of an organization with `--replay-events` events (written straight
//            into the store's file first), events per second, in the `standard` format and in `datadog`'s batches.
//   npm run build && node bench/webhooks/run.mjs [--commands 200] [--replay-events 100000] [--burst 20] [--cpu-prof
// DIR]
// See README.md beside this file for the figures measured.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { openEventStore } from '../../dist/libs/event-store/src/index.js';
import { builtServerEnvironment, chorusJson, freePort, untilHealthy } from '../support/built-server.mjs';

const { values } = parseArgs({
  options: {
    commands: { type: 'string' },
    'replay-events': { type: 'string' },
    burst: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const commands = Number(values.commands ?? 200);
const replayEvents = Number(values['replay-events'] ?? 100_000);
const root = path.resolve(import.meta.dirname, '../..');
const loadAverage = async () =>
  (await import('node:os'))
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

/** Records when each endpoint (its path) got each event (its webhook-id), answering 204 at once. */
function startReceiver() {
  const arrivals = new Map();
  let count = 0;
  const waiters = [];
  const server = createServer((request, response) => {
    const at = performance.now();
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const events = request.headers['webhook-id'] === undefined ? JSON.parse(body).length : 1;
      if (request.headers['webhook-id'] !== undefined)
        arrivals.set(`${request.url} ${request.headers['webhook-id']}`, at);
      count += events;
      for (const waiter of waiters.splice(0)) waiter();
      response.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: (name) => `http://127.0.0.1:${server.address().port}/${name}`,
        arrivals,
        get count() {
          return count;
        },
        reset() {
          count = 0;
          arrivals.clear();
        },
        async until(total) {
          while (count < total) await new Promise((wake) => waiters.push(wake));
        },
        close: () => new Promise((done) => server.close(done)),
      }),
    ),
  );
}

async function startServer(dataDir) {
  const port = await freePort();
  const profile =
    values['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', path.resolve(values['cpu-prof'])];
  const child = spawn(process.execPath, [...profile, path.join(root, 'dist/apps/api/src/main.js')], {
    cwd: root,
    env: builtServerEnvironment(dataDir, port),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await untilHealthy(child, url);
  return { url, stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) };
}

function client(url, key) {
  return async (method, route, body) => {
    const answer = await fetch(`${url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`${method} ${route}: ${answer.status} ${await answer.text()}`);
    return answer.status === 204 ? undefined : answer.json();
  };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** One organization with `count` events: created, on a plan, then QA domains added and removed in turn. */
async function writeOrganization(dataDir, id, count) {
  await (await openEventStore({ dataDir })).close();
  const db = new Database(path.join(dataDir, 'events.sqlite'));
  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const at = new Date().toISOString();
  const eventOf = (revision) => {
    if (revision === 0) return ['OrganizationCreated', { id, name: 'Replayed' }];
    if (revision === 1) return ['PlanAssigned', { line: 'classic', plan: 'enterprise' }];
    return [
      revision % 2 === 0 ? 'QualityAssuranceDomainAdded' : 'QualityAssuranceDomainRemoved',
      { domain: 'qa.replayed.example' },
    ];
  };
  db.transaction(() => {
    for (let revision = 0; revision < count; revision += 1) {
      const [type, data] = eventOf(revision);
      const correlationId = randomUUID();
      insert.run(
        `organization-${id}`,
        revision,
        randomUUID(),
        type,
        JSON.stringify(data),
        JSON.stringify({ actor: 'cli', correlationId, causationId: correlationId }),
        at,
      );
    }
  })();
  db.close();
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-webhooks-'));
const receiver = await startReceiver();
try {
  await writeOrganization(dataDir, 'replayed', replayEvents);
  const key = JSON.parse(
    await chorusJson(
      dataDir,
      'api-key:create',
      '--name',
      'bench',
      '--scopes',
      'organizations:read,organizations:write,webhooks:write',
    ),
  ).key;
  const server = await startServer(dataDir);
  const api = client(server.url, key);
  try {
    // Latency: 10 organizations with 10 endpoints each, a member whose role is changed one command at a time.
    const organizations = [];
    for (let index = 0; index < 10; index += 1) {
      const { id } = await api('POST', '/organizations', { name: `Bench ${index}` });
      await api('POST', `/organizations/${id}/plan`, { line: 'classic', plan: 'enterprise' });
      const { userId } = await api('POST', `/organizations/${id}/members`, {
        email: `member-${index}@bench.example`,
        role: 'member',
      });
      for (let endpoint = 0; endpoint < 10; endpoint += 1)
        await api('POST', `/organizations/${id}/webhooks`, {
          url: receiver.url(`${id}/${endpoint}`),
          events: ['member.role_changed'],
        });
      organizations.push({ id, userId });
    }
    const latencies = [];
    for (let index = 0; index < commands; index += 1) {
      const { id, userId } = organizations[index % organizations.length];
      const expected = receiver.count + 10;
      await api('PATCH', `/organizations/${id}/members/${userId}`, { role: index % 20 < 10 ? 'admin' : 'member' });
      const answered = performance.now();
      await receiver.until(expected);
      const arrivals = [...receiver.arrivals.entries()]
        .filter(([name]) => name.startsWith(`/${id}/`))
        .map(([, at]) => at);
      latencies.push(...arrivals.slice(-10).map((at) => at - answered));
    }
    latencies.sort((a, b) => a - b);
    console.log(
      `latency, command 2xx to receiver, 100 endpoints (${latencies.length} deliveries): p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms (target p99 <= 500 ms); load ${await loadAverage()}`,
    );

    // Rate: the same 100 endpoints, turned off while each organization records `burst` changes, then all turned on at
    // once: what is timed is the node sending, not the commands (which the latency above already covers).
    const burst = Number(values.burst ?? 20);
    // Each member a `member` first, so that every change of the burst changes something (a no-op records nothing).
    for (const { id, userId } of organizations)
      await api('PATCH', `/organizations/${id}/members/${userId}`, { role: 'member' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const endpointsOf = async (id) =>
      (await api('GET', `/organizations/${id}/webhooks`)).endpoints.map((endpoint) => endpoint.id);
    for (const organization of organizations) organization.endpoints = await endpointsOf(organization.id);
    const switchAll = (enabled) =>
      Promise.all(
        organizations.flatMap(({ id, endpoints }) =>
          endpoints.map((endpoint) => api('PATCH', `/organizations/${id}/webhooks/${endpoint}`, { enabled })),
        ),
      );
    await switchAll(false);
    for (const { id, userId } of organizations) {
      for (let index = 0; index < burst; index += 1)
        await api('PATCH', `/organizations/${id}/members/${userId}`, { role: index % 2 === 0 ? 'admin' : 'member' });
    }
    receiver.reset();
    const before = performance.now();
    await switchAll(true);
    await receiver.until(organizations.length * 10 * burst);
    const seconds = (performance.now() - before) / 1000;
    console.log(
      `rate: ${organizations.length * 10 * burst} deliveries to 100 endpoints in ${seconds.toFixed(2)} s: ${((organizations.length * 10 * burst) / seconds).toFixed(0)}/s (target >= 2,000/s); load ${await loadAverage()}`,
    );

    // Replay: one endpoint from the beginning of an organization of `replayEvents` events, per format.
    for (const format of ['standard', 'datadog']) {
      receiver.reset();
      const started = performance.now();
      await api('POST', '/organizations/replayed/webhooks', {
        url: receiver.url(`replayed-${format}`),
        events: ['*'],
        startFrom: 'beginning',
        format,
        ...(format === 'standard' ? {} : { token: 'bench' }),
      });
      await receiver.until(replayEvents);
      const elapsed = (performance.now() - started) / 1000;
      console.log(
        `replay, ${format}: ${replayEvents} events in ${elapsed.toFixed(1)} s: ${(replayEvents / elapsed).toFixed(0)} events/s (target >= 5,000/s); load ${await loadAverage()}`,
      );
    }
  } finally {
    await server.stop();
  }
} finally {
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
}
