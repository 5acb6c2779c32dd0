// Chorus against a peer, the same command in one run: adding members (decide on the organization's stream
// with its users limit, a durable append, the read model updated) through Chorus's built server and through
// a small Emmett app (emmett-app.mjs; emmett-postgres-app.mjs on PostgreSQL), alternating which goes first, min /
// median / max over the rounds. `--store postgres`: both on one throw-away PostgreSQL cluster, a database each.
//   npm run build && (cd bench/peers && npm install) && node bench/peers/run.mjs [--rounds 3] [--connections 32]
//     [--cpu-prof DIR] [--server main.js] [--store sqlite|postgres [--count-statements]]
// See README.md beside this file.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildRootOf, builtServerEnvironment, freePort, untilHealthy, chorusJsonOf } from '../support/built-server.mjs';
import { initCluster } from '../support/postgres-cluster.mjs';
import { cpuSeconds } from '../support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({ options: { rounds: { type: 'string' }, connections: { type: 'string' }, 'cpu-prof': { type: 'string' }, server: { type: 'string' }, store: { type: 'string' }, 'count-statements': { type: 'boolean' } } });
const store = values.store ?? 'sqlite';
if (store !== 'sqlite' && store !== 'postgres') throw new Error('--store: sqlite or postgres');
// On PostgreSQL: the statements each server sends per add, the adds' later work included (pg_stat_statements, loaded
// only when asked: it costs both servers a little).
const countStatements = values['count-statements'] === true;
if (countStatements && store !== 'postgres') throw new Error('--count-statements needs --store postgres');
const chorusMain = values.server === undefined ? path.join(root, 'dist/apps/api/src/main.js') : path.resolve(values.server);
const rounds = Number(values.rounds ?? 3);
const connections = Number(values.connections ?? 32);
/** Each measure adds `addsPerOrganization` members to each of this many new organizations. */
const organizationsPerMeasure = 256;
const addsPerOrganization = 8;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let counter = 0;
const unique = () => `${process.pid}-${(counter += 1)}`;

function start(args, env, url) {
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return untilHealthy(child, url).then(() => ({ pid: child.pid, stop: () => (child.kill('SIGTERM'), exited) }));
}

/** Both processes idle (under 2% of a core for a whole second): no measure is charged with the last one's leftovers (Chorus's invitations). */
async function settled(pids) {
  let before = pids.map((pid) => cpuSeconds(pid));
  // A profiled server never idles (the profiler samples): then ten seconds stand in for settling.
  for (let waited = 0; values['cpu-prof'] === undefined || waited < 10; waited += 1) {
    await sleep(1000);
    const after = pids.map((pid) => cpuSeconds(pid));
    if (after.every((seconds, index) => seconds - before[index] < 0.02)) return;
    before = after;
  }
}

async function call(url, method, route, headers, body) {
  const response = await fetch(`${url}${route}`, { method, headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Adds to every organization round-robin; anything but 2xx stops the bench. Sampled every 10 ms so the rate is true to 10 ms. */
async function addMembers(name, url, headers, ids) {
  let next = 0;
  const result = await new Promise((resolve, reject) =>
    autocannon(
      {
        url,
        connections,
        amount: ids.length * addsPerOrganization,
        sampleInt: 10,
        requests: [
          {
            method: 'POST',
            headers,
            setupRequest: (request) => {
              const id = ids[next % ids.length];
              next += 1;
              return { ...request, path: `/organizations/${id}/members`, body: JSON.stringify({ email: `m-${unique()}@bench.example`, role: 'member' }) };
            },
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    ),
  );
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  return { rps: result['2xx'] / result.duration, p50: result.latency.p50, p99: result.latency.p99 };
}

const work = mkdtempSync(path.join(tmpdir(), 'chorus-bench-peers-'));
const chorusData = path.join(work, 'chorus');
const processes = [];
let cluster;
/** A connection to the cluster's own database, for pg_stat_statements (--count-statements). */
let statistics;
const statementsOf = async (database) =>
  Number((await statistics.query('SELECT coalesce(sum(calls), 0) AS calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1', [database])).rows[0].calls);
try {
  let emmettStore = path.join(work, 'emmett.sqlite');
  if (store === 'postgres') {
    // The server's defaults (fsync on, synchronous_commit on), as Chorus's own PostgreSQL bench starts it.
    cluster = initCluster();
    const pgPort = await freePort();
    const preload = countStatements ? ' -c shared_preload_libraries=pg_stat_statements' : '';
    cluster.run('pg_ctl', ['-D', cluster.dir, '-o', `-p ${pgPort} -k ${cluster.dir} -c listen_addresses=127.0.0.1 -c max_connections=200${preload}`, '-l', `${cluster.dir}/server.log`, '-w', 'start']);
    for (const database of ['chorus', 'emmett']) cluster.run('createdb', ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres', database]);
    if (countStatements) {
      statistics = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${pgPort}/postgres` });
      await statistics.connect();
      await statistics.query('CREATE EXTENSION pg_stat_statements');
    }
    // The command line and the server below take their environment from this process's.
    process.env.DATABASE_URL = `postgres://postgres@127.0.0.1:${pgPort}/chorus`;
    emmettStore = `postgres://postgres@127.0.0.1:${pgPort}/emmett`;
  }
  const apiKey = JSON.parse(await chorusJsonOf(buildRootOf(chorusMain), chorusData, 'api-key:create', '--name', 'bench', '--scopes', 'organizations:read,organizations:write')).key;
  const chorusPort = await freePort();
  const emmettPort = await freePort();
  const chorus = { url: `http://127.0.0.1:${chorusPort}`, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' } };
  const emmett = { url: `http://127.0.0.1:${emmettPort}`, headers: { 'content-type': 'application/json' } };
  const env = builtServerEnvironment(chorusData, chorusPort);
  delete env.PROJECTIONS;
  const profile = values['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', path.resolve(values['cpu-prof'])];
  processes.push(await start([...profile, chorusMain], env, chorus.url));
  // Other benches read the rounds' lines as they were: the store goes on a line of its own.
  console.log(`store: ${store === 'postgres' ? 'PostgreSQL (one cluster, a database each)' : 'embedded (each its own SQLite file)'}`);
  const emmettApp = store === 'postgres' ? 'emmett-postgres-app.mjs' : 'emmett-app.mjs';
  processes.push(await start([path.join(import.meta.dirname, emmettApp), String(emmettPort), emmettStore], process.env, emmett.url));

  // Chorus: Classic Professional (its users limit is checked, and has room); Emmett: a users limit with room.
  const organizations = {
    chorus: async () => {
      const ids = [];
      for (let index = 0; index < organizationsPerMeasure; index += 1) {
        const { id } = await call(chorus.url, 'POST', '/organizations', chorus.headers, { name: `Bench ${unique()}` });
        await call(chorus.url, 'POST', `/organizations/${id}/plan`, chorus.headers, { line: 'classic', plan: 'professional' });
        ids.push(id);
      }
      return ids;
    },
    emmett: async () => {
      const ids = [];
      for (let index = 0; index < organizationsPerMeasure; index += 1) {
        const id = `o-${unique()}`;
        await call(emmett.url, 'POST', `/organizations/${id}`, emmett.headers, { name: `Bench ${id}`, usersLimit: 1_000_000 });
        ids.push(id);
      }
      return ids;
    },
  };
  const ratios = [];
  for (let round = 0; round <= rounds; round += 1) {
    const warmUp = round === 0;
    const measured = {};
    for (const name of round % 2 === 0 ? ['chorus', 'emmett'] : ['emmett', 'chorus']) {
      const ids = await organizations[name]();
      await settled(processes.map((child) => child.pid));
      const target = name === 'chorus' ? chorus : emmett;
      const before = countStatements ? await statementsOf(name) : 0;
      measured[name] = await addMembers(name, target.url, target.headers, ids);
      if (countStatements) {
        await settled(processes.map((child) => child.pid));
        measured[name].statements = (await statementsOf(name)) - before;
      }
    }
    const line = (name) => `${name} ${measured[name].rps.toFixed(0)}/s (p50 ${measured[name].p50} ms, p99 ${measured[name].p99} ms)`;
    console.log(`${warmUp ? 'warm-up' : `round ${round}`}: ${line('chorus')}, ${line('emmett')}, chorus / emmett ${(measured.chorus.rps / measured.emmett.rps).toFixed(3)}`);
    if (!warmUp) ratios.push(measured.chorus.rps / measured.emmett.rps);
    if (countStatements) {
      const adds = organizationsPerMeasure * addsPerOrganization;
      console.log(`  statements per add, later work included: chorus ${(measured.chorus.statements / adds).toFixed(2)}, emmett ${(measured.emmett.statements / adds).toFixed(2)} (${measured.chorus.statements} and ${measured.emmett.statements} for ${adds} adds each)`);
    }
  }
  if (countStatements)
    for (const name of ['chorus', 'emmett']) {
      // Where each server's statements spend PostgreSQL's time, over the whole run (warm-up included).
      const { rows } = await statistics.query(
        "SELECT calls, total_exec_time AS ms, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1 ORDER BY total_exec_time DESC LIMIT 8",
        [name],
      );
      console.log(`  ${name}'s statements by time in PostgreSQL, the whole run:`);
      for (const row of rows) console.log(`    ${Number(row.ms).toFixed(0).padStart(7)} ms ${String(row.calls).padStart(7)} calls  ${row.query}`);
    }
  const sorted = [...ratios].sort((a, b) => a - b);
  console.log(`add-member on ${store === 'postgres' ? 'PostgreSQL' : 'the embedded store'}, Chorus / Emmett (target >= 1.2): ${sorted[0].toFixed(3)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(3)} / ${sorted.at(-1).toFixed(3)} (min / median / max of ${rounds})`);
} finally {
  for (const child of processes) await child.stop();
  await statistics?.end();
  cluster?.run('pg_ctl', ['-D', cluster.dir, '-m', 'immediate', '-w', 'stop']);
  if (cluster !== undefined) rmSync(cluster.dir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
