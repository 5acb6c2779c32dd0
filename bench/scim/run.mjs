// SCIM 2.0 provisioning (docs/directory.md) against the built server, two API nodes, on each store:
//   provisioning:   --users people created through POST /scim/v2/Users by --concurrency requests in flight, as an
//                   identity provider parallelises them; users per second from the first request to the last answer
//                   (target >= 500/s). Embedded store: node A takes them all (the embedded store's own topology is
//                   one node); PostgreSQL: spread over both nodes, request by request.
//   deprovisioning: --sessions of those people have an account with a password and are signed in on node B; one at a
//                   time, PATCH active:false goes to node A, and node B's GET /session is polled every --poll-ms until
//                   it answers 401: the time from the PATCH's answer to that 401, p50 / p99 (target p99 <= 1 s), and
//                   the p99 from the PATCH's sending (the session ends before the PATCH has answered).
//   owner's reads:  then, on node B, what the console reads of the directory: the organization with its members and
//                   who of them has a second factor, the first time and the p50 of ten more (no target: a figure).
//   History reads:  then, on node B, what the History page reads of that organization: the timeline, the usage over
//                   time, and the state and the change at the middle revision (no target: a figure).
// Embedded: two processes on one DATA_DIR (the second with PROJECTIONS=off); PostgreSQL: a throw-away cluster from
// Debian's binaries and two nodes with a DATA_DIR each. The organization's domain is verified first as the e2e test
// does it (test/e2e/scim.e2e.spec.ts): an OpenID provider stand-in (oauth2-mock-server) and dnsmasq on loopback.
//   npm run build:server && node bench/scim/run.mjs [--users 10000] [--store sqlite|postgres|both] [--concurrency 16]
//     [--sessions 200] [--poll-ms 10] [--cpu-prof DIR]        (the default run took 5 to 51 min here)
// See README.md beside this file for the figures measured.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { OAuth2Server } from 'oauth2-mock-server';
import { builtServerEnvironment, freePort, signInPageHeaders, untilHealthy } from '../support/built-server.mjs';
import { cpuSeconds } from '../support/process-cpu.mjs';
import { startDnsServer } from './dns-server.mjs';

const { values } = parseArgs({
  options: {
    users: { type: 'string' },
    store: { type: 'string' },
    concurrency: { type: 'string' },
    sessions: { type: 'string' },
    'poll-ms': { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const userCount = Number(values.users ?? 10_000);
const stores = values.store === undefined || values.store === 'both' ? ['sqlite', 'postgres'] : [values.store];
const concurrency = Number(values.concurrency ?? 16);
const sessionCount = Math.min(Number(values.sessions ?? 200), userCount);
const pollMs = Number(values['poll-ms'] ?? 10);
if (!stores.every((store) => store === 'sqlite' || store === 'postgres'))
  throw new Error('--store: sqlite, postgres or both');

const root = path.resolve(import.meta.dirname, '../..');
const main = path.join(root, 'dist/apps/api/src/main.js');
if (!existsSync(path.join(root, 'dist/apps/api/src/directory/scim.controller.js')))
  throw new Error('the built server has no SCIM: run `npm run build:server` first');

const domain = 'scim-bench.example';
const organizationId = 'scim-bench';
const password = 'scim bench: seventy-seven quiet lanterns';
// Shared by both nodes, as docs/scale-out.md requires: a cookie or sealed secret written by one is read by the other.
const shared = {
  SESSION_SECRET: randomBytes(32).toString('base64url'),
  SSO_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const userNameOf = (index) => `user-${index}@${domain}`;
// The people with an account are spread through the run, as a directory's existing Chorus users would be.
const stride = Math.max(1, Math.floor(userCount / Math.max(1, sessionCount)));
const accountIndexes = Array.from({ length: sessionCount }, (_, n) => n * stride);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const ms = (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const number = (value) => Math.round(value).toLocaleString('en-US');

/** A throw-away cluster (bench/postgres's way): initdb refuses root, so as root the cluster belongs to `postgres`. */
async function startPostgres() {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql').filter((version) => existsSync(`/usr/lib/postgresql/${version}/bin/pg_ctl`))
    : [];
  if (versions.length === 0) throw new Error("no PostgreSQL under /usr/lib/postgresql (Debian's postgresql package)");
  const bin = `/usr/lib/postgresql/${versions.sort((a, b) => Number(b) - Number(a))[0]}/bin`;
  const asOwner = (tool, args) =>
    process.getuid() === 0
      ? ['runuser', ['-u', 'postgres', '--', `${bin}/${tool}`, ...args]]
      : [`${bin}/${tool}`, args];
  const run = (tool, args) => execFileSync(...asOwner(tool, args), { stdio: ['ignore', 'ignore', 'inherit'] });
  const dir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-scim-pg-'));
  if (process.getuid() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString().trim()), -1);
  run('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  // The server's durable defaults (fsync, synchronous_commit on).
  run('pg_ctl', [
    '-D',
    dir,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
    '-l',
    `${dir}/server.log`,
    '-w',
    'start',
  ]);
  run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'chorus']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/chorus`,
    stop() {
      run('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `node <script>` with `env` to its end: its standard output; throws with its standard error when it fails. */
function nodeScript(script, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}: ${err.slice(-2000)}`)),
    );
  });
}

/** The built server as its own process; its standard error is kept, to show what it warned of. */
async function startNode(name, settings) {
  const port = await freePort();
  const profile =
    values['cpu-prof'] === undefined
      ? []
      : [
          '--cpu-prof',
          '--cpu-prof-dir',
          path.resolve(values['cpu-prof']),
          '--cpu-prof-name',
          `${name}-${Date.now()}.cpuprofile`,
        ];
  const env = { ...builtServerEnvironment(settings.DATA_DIR, port), ...settings };
  const child = spawn(process.execPath, [...profile, main], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  try {
    await untilHealthy(child, url);
  } catch (error) {
    throw new Error(`${error.message}: ${stderr.slice(-2000)}`, { cause: error });
  }
  return {
    name,
    url,
    pid: child.pid,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function operator(url, key) {
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

/** An identity provider's request: SCIM's media type and the directory token. */
async function scim(url, token, method, route, body) {
  const answer = await fetch(`${url}/scim/v2${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/scim+json',
      ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await answer.text();
  return {
    status: answer.status,
    type: answer.headers.get('content-type')?.split(';')[0],
    body: text === '' ? undefined : JSON.parse(text),
  };
}

/** Okta's create: the profile its default mapping sends. */
const oktaUser = (index) => ({
  schemas: [USER],
  userName: userNameOf(index),
  name: { givenName: `Given${index}`, familyName: `Family${index}` },
  emails: [{ primary: true, value: userNameOf(index), type: 'work' }],
  displayName: `Given${index} Family${index}`,
  locale: 'en-US',
  externalId: `00u${String(index).padStart(8, '0')}`,
  groups: [],
  active: true,
});

/** The organization's domain verified as the SSO page does it: settings, the TXT record served, the check. */
async function verifyDomain(api, issuer, dns) {
  await api('PUT', `/organizations/${organizationId}/sso`, {
    issuer,
    clientId: 'chorusScimBench',
    clientSecret: 'idp-secret-scim-bench',
    domains: [domain],
  });
  const states = (await api('GET', `/organizations/${organizationId}`)).sso.settings.domainStates;
  const { record } = states.find((state) => state.domain === domain);
  await dns.serve({ [record.name]: [record.value] });
  const verified = await api('POST', `/organizations/${organizationId}/sso/domains/${domain}/verify`, {});
  if (verified.status !== 'verified') throw new Error(`the domain was not verified: ${JSON.stringify(verified)}`);
}

/** `userCount` creates, `concurrency` in flight, request n to nodes[n % nodes.length]. */
async function provision(nodes, token) {
  const latencies = [];
  const answeredAt = [];
  const failures = new Map();
  const resourceIds = new Map();
  const cpuBefore = nodes.map((node) => cpuSeconds(node.pid));
  let next = 0;
  const worker = async () => {
    while (next < userCount) {
      const index = next++;
      const node = nodes[index % nodes.length];
      const sent = performance.now();
      const answer = await scim(node.url, token, 'POST', '/Users', oktaUser(index));
      latencies.push(performance.now() - sent);
      answeredAt.push(performance.now());
      if (answer.status === 201) resourceIds.set(index, answer.body.id);
      else {
        const key = `${answer.status} ${answer.type} ${answer.body?.scimType ?? ''} ${answer.body?.detail ?? ''}`
          .replace(/ +/g, ' ')
          .trim();
        failures.set(key, (failures.get(key) ?? 0) + 1);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const cpu = nodes.map((node, n) => `${node.name} ${(cpuSeconds(node.pid) - cpuBefore[n]).toFixed(1)} s`).join(', ');
  latencies.sort((a, b) => a - b);
  // The first and the last tenth's own rates: whether a create costs more as the directory grows.
  const tenth = Math.max(1, Math.floor(userCount / 10));
  const firstTenth = tenth / ((answeredAt[tenth - 1] - started) / 1000);
  const lastTenth = tenth / ((answeredAt.at(-1) - answeredAt.at(-1 - tenth)) / 1000);
  const p50 = percentile(latencies, 50);
  return {
    seconds,
    rate: userCount / seconds,
    firstTenth,
    lastTenth,
    p50,
    p99: percentile(latencies, 99),
    failures,
    resourceIds,
    cpu,
  };
}

/** A browser signed in on `url` as `username`: its cookies, the session's among them. */
async function signedIn(url, username) {
  const headers = await signInPageHeaders(url);
  const answer = await fetch(`${url}/login`, { method: 'POST', headers, body: JSON.stringify({ username, password }) });
  await answer.arrayBuffer();
  if (answer.status !== 204) throw new Error(`POST /login as ${username}: ${answer.status}`);
  const cookies = new Map(headers.cookie.split('; ').map((cookie) => [cookie.slice(0, cookie.indexOf('=')), cookie]));
  for (const cookie of answer.headers.getSetCookie().map((line) => line.split(';')[0]))
    cookies.set(cookie.slice(0, cookie.indexOf('=')), cookie);
  return [...cookies.values()].join('; ');
}

const sessionStatus = async (url, cookie) => {
  const answer = await fetch(`${url}/session`, { headers: { cookie } });
  await answer.arrayBuffer();
  return answer.status;
};

/** One person at a time: their session warm on node B, PATCH active:false to node A, B polled until it refuses. */
async function deprovision(nodeA, nodeB, token, resourceIds) {
  const people = accountIndexes.filter((index) => resourceIds.has(index));
  const browsers = new Map();
  // Four sign-ins at a time: each is an argon2 check on node B.
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < people.length) {
        const index = people[next++];
        browsers.set(index, await signedIn(nodeB.url, userNameOf(index)));
      }
    }),
  );
  const latencies = [];
  const fromSending = [];
  const patches = [];
  let timedOut = 0;
  for (const index of people) {
    const cookie = browsers.get(index);
    // Node B holds the session in its cache now: only the end followed from the log refuses it before 5 s.
    if ((await sessionStatus(nodeB.url, cookie)) !== 200)
      throw new Error(`${userNameOf(index)} is not signed in on node B`);
    const sent = performance.now();
    const answer = await scim(nodeA.url, token, 'PATCH', `/Users/${resourceIds.get(index)}`, {
      schemas: [PATCH_OP],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    const answered = performance.now();
    if (answer.status !== 200 || answer.body.active !== false)
      throw new Error(`PATCH ${userNameOf(index)}: ${answer.status} ${JSON.stringify(answer.body)}`);
    patches.push(answered - sent);
    for (;;) {
      const status = await sessionStatus(nodeB.url, cookie);
      const now = performance.now();
      if (status === 401) {
        latencies.push(now - answered);
        fromSending.push(now - sent);
        break;
      }
      if (now - answered > 10_000) {
        timedOut += 1;
        break;
      }
      await sleep(pollMs);
    }
  }
  latencies.sort((a, b) => a - b);
  fromSending.sort((a, b) => a - b);
  patches.sort((a, b) => a - b);
  return {
    count: people.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1),
    sentP99: percentile(fromSending, 99),
    patchP50: percentile(patches, 50),
    patchP99: percentile(patches, 99),
    timedOut,
  };
}

/** The organization's member count on `node` once its read model shows `expected`, or what it shows after 30 s. */
async function membersOn(api, expected) {
  const until = Date.now() + 30_000;
  for (;;) {
    const count = (await api('GET', `/organizations/${organizationId}`)).members.length;
    if (count === expected || Date.now() > until) return count;
    await sleep(200);
  }
}

/** Each route read the first time, then `again` more times: `{name: {first, p50}}` in milliseconds. */
async function timedReads(api, routes, again) {
  const timed = async (route) => {
    const at = performance.now();
    await api('GET', route);
    return performance.now() - at;
  };
  const figures = {};
  for (const [name, route] of routes) {
    const first = await timed(route);
    const later = [];
    for (let n = 0; n < again; n += 1) later.push(await timed(route));
    figures[name] = {
      first,
      p50: percentile(
        later.sort((a, b) => a - b),
        50,
      ),
    };
  }
  return figures;
}

/**
 * What an owner's console asks of a directory this size: the organization (with its members), and who has a second
 * factor.
 */
function ownerReads(url, apiKey) {
  const routes = [
    ['organization', `/organizations/${organizationId}`],
    ['twoStep', `/organizations/${organizationId}/two-step-sign-in`],
  ];
  return timedReads(operator(url, apiKey), routes, 10);
}

/**
 * What an auditor's History page asks of a directory this size, each the first time and the p50 of five more: the
 * timeline's first page, the usage over time, and the state and the change at the middle revision (time travel).
 */
async function historyReads(url, apiKey) {
  const api = operator(url, apiKey);
  const { revision } = await api('GET', `/organizations/${organizationId}/state`);
  const middle = Math.floor(Number(revision) / 2);
  const routes = [
    ['timeline', `/organizations/${organizationId}/history/events?limit=50`],
    ['usage', `/organizations/${organizationId}/history/usage`],
    ['state', `/organizations/${organizationId}/state?asOfRevision=${middle}`],
    ['change', `/organizations/${organizationId}/history/changes?asOfRevision=${middle}`],
  ];
  return { revision: Number(revision), middle, figures: await timedReads(api, routes, 5) };
}

async function measure(store, issuer, dns) {
  const dirs = [mkdtempSync(path.join(tmpdir(), 'chorus-bench-scim-'))];
  const postgres = store === 'postgres' ? await startPostgres() : undefined;
  const nodes = [];
  try {
    const storeSettings = postgres === undefined ? {} : { DATABASE_URL: postgres.url };
    const settingsA = {
      ...shared,
      ...storeSettings,
      DNS_SERVERS: dns.address,
      DATA_DIR: dirs[0],
      PROJECTIONS: 'inline',
    };
    const started = performance.now();
    const accounts = accountIndexes.map(userNameOf);
    const seeded = JSON.parse(
      await nodeScript(path.join(import.meta.dirname, 'seed.mjs'), {
        ...builtServerEnvironment(dirs[0], 0),
        ...settingsA,
        SEED: JSON.stringify({ organizationId, domain, password, accounts }),
      }),
    );
    const seedSeconds = (performance.now() - started) / 1000;
    nodes.push(await startNode('node-a', settingsA));
    if (postgres === undefined) {
      // The embedded store's second process: the same DATA_DIR, the projector left to node A.
      nodes.push(await startNode('node-b', { ...settingsA, PROJECTIONS: 'off' }));
    } else {
      dirs.push(mkdtempSync(path.join(tmpdir(), 'chorus-bench-scim-')));
      nodes.push(await startNode('node-b', { ...settingsA, DATA_DIR: dirs[1] }));
    }
    const [nodeA, nodeB] = nodes;
    const api = operator(nodeA.url, seeded.apiKey);
    await verifyDomain(api, issuer, dns);
    await api('PUT', `/organizations/${organizationId}/limits`, { users: 0 });
    const { token } = await api('POST', `/organizations/${organizationId}/scim/tokens`, { name: 'Okta' });
    console.error(
      `${store}: seeded ${accounts.length} accounts in ${seedSeconds.toFixed(1)} s, nodes up, domain verified; provisioning ${number(userCount)} users (load ${load()})`,
    );

    const provisioned = await provision(postgres === undefined ? [nodeA] : [nodeA, nodeB], token);
    const loadAfterProvisioning = load();
    const members = await membersOn(api, provisioned.resourceIds.size + 1);
    for (const [key, count] of provisioned.failures) console.error(`${store}: ${count} answered ${key}`);
    console.error(
      `${store}: provisioned in ${provisioned.seconds.toFixed(1)} s; signing ${sessionCount} people in on node B and deprovisioning them (load ${load()})`,
    );
    const deprovisioned = await deprovision(nodeA, nodeB, token, provisioned.resourceIds);
    const reads = await ownerReads(nodeB.url, seeded.apiKey);
    const history = await historyReads(nodeB.url, seeded.apiKey);
    const failed = [...provisioned.failures].map(([key, count]) => `${count} x ${key}`).join('; ');
    const warnings = nodes
      .map((node) => [node.name, node.stderr().trim().split('\n').filter(Boolean)])
      .filter(([, lines]) => lines.length > 0);
    return {
      store,
      provisioning: {
        target: '>= 500/s',
        figure: `${number(provisioned.rate)}/s (${number(userCount)} in ${provisioned.seconds.toFixed(1)} s; first tenth ${number(provisioned.firstTenth)}/s, last ${number(provisioned.lastTenth)}/s; POST p50 ${ms(provisioned.p50)}, p99 ${ms(provisioned.p99)}; ${provisioned.failures.size === 0 ? 'none failed' : `failed: ${failed}`}; members after: ${number(members)}${members === provisioned.resourceIds.size + 1 ? '' : ` where ${number(provisioned.resourceIds.size + 1)} were expected (the owner and each 201)`}; CPU ${provisioned.cpu}; load ${loadAfterProvisioning})`,
        met: provisioned.rate >= 500 && provisioned.failures.size === 0,
      },
      deprovisioning: {
        target: 'p99 <= 1 s',
        // --sessions 0 measures provisioning and reads only.
        figure:
          deprovisioned.count === 0
            ? 'not measured (--sessions 0)'
            : `p50 ${ms(deprovisioned.p50)}, p99 ${ms(deprovisioned.p99)}, max ${ms(deprovisioned.max)} (${deprovisioned.count} people${deprovisioned.timedOut > 0 ? `, ${deprovisioned.timedOut} still signed in after 10 s` : ''}; PATCH p50 ${ms(deprovisioned.patchP50)}, p99 ${ms(deprovisioned.patchP99)}; from the PATCH's sending p99 ${ms(deprovisioned.sentP99)}; load ${load()})`,
        met: deprovisioned.count > 0 && deprovisioned.p99 <= 1000 && deprovisioned.timedOut === 0,
      },
      reads: {
        target: '-',
        figure: `GET /organizations/:id first ${ms(reads.organization.first)}, p50 ${ms(reads.organization.p50)}; GET .../two-step-sign-in first ${ms(reads.twoStep.first)}, p50 ${ms(reads.twoStep.p50)} (${(reads.twoStep.p50 / reads.organization.p50).toFixed(2)} x the organization's)`,
      },
      history: {
        target: '-',
        figure: `at revision ${number(history.revision)}: ${Object.entries(history.figures)
          .map(([name, figure]) => `${name} first ${ms(figure.first)}, p50 ${ms(figure.p50)}`)
          .join('; ')} (state and change as of revision ${number(history.middle)})`,
      },
      nodes:
        postgres === undefined
          ? 'two processes, one DATA_DIR (B: PROJECTIONS=off); provisioning on A'
          : 'two nodes, a DATA_DIR each; provisioning spread over both',
      warnings,
    };
  } finally {
    for (const node of nodes.reverse()) await node.stop();
    postgres?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const idp = new OAuth2Server();
await idp.issuer.keys.generate('RS256');
await idp.start(0, '127.0.0.1');
const dns = await startDnsServer([domain]);
const started = performance.now();
const results = [];
try {
  // The figures belong to a build: the server's build stamp says which.
  const built = existsSync(path.join(root, 'dist/.stamps/server'))
    ? readFileSync(path.join(root, 'dist/.stamps/server'), 'utf8').trim()
    : 'unknown';
  console.error(
    `server built ${built}; node ${process.version}, ${os.cpus().length} cores, ${number(userCount)} users, ${concurrency} in flight, ${sessionCount} sessions, polled every ${pollMs} ms; load ${load()}`,
  );
  for (const store of stores) results.push(await measure(store, idp.issuer.url, dns));
} finally {
  await dns.stop();
  await idp.stop();
}

const rows = [['store', 'measure', 'target', 'met', 'figure']];
for (const result of results) {
  const name = result.store === 'sqlite' ? 'embedded' : 'postgresql';
  rows.push([
    name,
    `provisioning, ${concurrency} in flight`,
    result.provisioning.target,
    result.provisioning.met ? 'yes' : 'NO',
    result.provisioning.figure,
  ]);
  rows.push([
    name,
    'deprovisioning to 401 on node B',
    result.deprovisioning.target,
    result.deprovisioning.met ? 'yes' : 'NO',
    result.deprovisioning.figure,
  ]);
  rows.push([name, "an owner's reads on node B", result.reads.target, '-', result.reads.figure]);
  rows.push([name, "an auditor's History reads on node B", result.history.target, '-', result.history.figure]);
}
const widths = rows[0].slice(0, -1).map((_, column) => Math.max(...rows.map((row) => row[column].length)));
for (const row of rows)
  console.log(row.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column]) : cell)).join('  '));
for (const result of results) console.log(`${result.store === 'sqlite' ? 'embedded' : 'postgresql'}: ${result.nodes}`);
for (const result of results)
  for (const [name, lines] of result.warnings)
    console.log(
      `${result.store} ${name} said (${lines.length} lines), last: ${lines.slice(-3).join(' | ').slice(0, 600)}`,
    );
console.log(
  `whole run ${((performance.now() - started) / 1000).toFixed(0)} s, ${new Date().toISOString()}, load ${load()}`,
);
