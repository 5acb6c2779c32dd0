// The HTTP table, measured in one run: Chorus (embedded store, default settings, projections inline)
// and a bare NestJS hello world, driven over loopback by autocannon, each ratio of two measures taken
// side by side in the same round, min/median/max over the rounds, with p50 and p99 latencies.
//   npm run build && node bench/http/run.mjs [--rounds 3] [--seconds 5] [--connections 32]
//     [--skip-store-benches] [--server dist/apps/api/src/main.js] [--cpu-prof DIR] [--only NAMES]
// See README.md beside this file for what each measure is and the figures measured.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import argon2 from 'argon2';
import autocannon from 'autocannon';
import { accountThrottlePolicy, addressThrottlePolicy } from '../../dist/libs/domain/src/index.js';
import { buildRootOf } from '../support/built-server.mjs';
import { freePort } from '../support/free-port.mjs';
import { cpuSeconds } from '../support/process-cpu.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    'skip-store-benches': { type: 'boolean' },
    server: { type: 'string' },
    'cpu-prof': { type: 'string' },
    only: { type: 'string' },
  },
});
const rounds = Number(values.rounds ?? 3);
/** Length of each time-bound measure. */
const seconds = Number(values.seconds ?? 5);
/** Connections kept open by autocannon (the figures: 32), and requests in flight for argon2 alone. */
const connections = Number(values.connections ?? 32);
const serverMain = path.resolve(root, values.server ?? 'dist/apps/api/src/main.js');
const only = values.only === undefined ? undefined : new Set(values.only.split(','));
const wanted = (name) => only === undefined || only.has(name);

/** Organizations added to in each add-member measure; each gets `addsPerOrganization` members per round. */
const organizationsPerMeasure = 256;
const addsPerOrganization = 8;
/** The large organizations start at this many members (and grow by addsPerOrganization per round). */
const largeOrganizationMembers = 72;
/** Users signing in concurrently in the logins measure. */
const loginUsers = 16;
/** The history measure: one user's sign-ins, one after the other. */
const historySignIns = 200;
/** Sign-ins at each end of the history compared (median latency of the first and the last this many). */
const historyWindow = 10;
const password = 'bench-password-7Qx!vR2#';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

/** A long-running process that prints nothing we need; resolves once `ready()` answers. */
async function startProcess(args, env, ready) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${stderr}`);
    await sleep(50);
  }
  return {
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Waits until each process has finished what the last measure left it: sign-ins still checking a password
 * after autocannon closed their connection, invitations still being mailed after the adds were answered.
 * Otherwise that work runs inside the next measure and is charged to it (the one-address sign-ins cost the
 * next logins measure about 7%). Settled: under 2% of a core over a whole second.
 */
async function settled() {
  if (!existsSync('/proc/self/stat')) return sleep(2000);
  const since = Date.now();
  const cpu = () => processes.map((child) => cpuSeconds(child.pid));
  let before = cpu();
  for (;;) {
    await sleep(1000);
    const after = cpu();
    if (after.every((seconds, index) => seconds - before[index] < 0.02)) return;
    if (Date.now() - since > 300_000) throw new Error('a server was still busy 5 minutes after a measure');
    before = after;
  }
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

function cannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Requests per second and latencies of one autocannon run; anything but 2xx stops the bench. */
async function load(name, options) {
  await settled();
  const result = await cannon(options);
  const answered = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return { rps: answered / result.duration, p50: result.latency.p50, p99: result.latency.p99, requests: answered };
}

let counter = 0;
const unique = () => `${process.pid}-${(counter += 1)}`;

// ---------------------------------------------------------------------------------------------------

const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-http-'));
const chorusEnv = {
  NODE_ENV: 'development',
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  // Only so the logins measure can give each user an address of their own; the one-address measure sends none.
  TRUST_PROXY: 'loopback',
  SEED_DEMO: 'false',
  EVENTSTORE_CONNECTION_STRING: '',
};
// Default settings: whatever this shell says about projections or logging does not apply.
for (const setting of ['PROJECTIONS', 'LOG_LEVEL', 'TRUST_PROXY']) delete process.env[setting];
// The server's own build writes the store it reads (an older build refuses a newer schema).
const cli = (...args) =>
  run(process.execPath, [path.join(buildRootOf(serverMain), 'bin/chorus.js'), ...args, '--json'], chorusEnv);

const processes = [];
try {
  // Before the server starts: an API key and the users who sign in (the command line, same DATA_DIR).
  const apiKey = JSON.parse(
    await cli('api-key:create', '--name', 'bench', '--scopes', 'organizations:read,organizations:write'),
  ).key;
  const loginEmails = Array.from({ length: loginUsers }, (_, index) => `login-${index}@bench.example`);
  const historyEmails = Array.from({ length: rounds + 1 }, (_, index) => `history-${index}@bench.example`);
  const emails = [...(wanted('logins') ? loginEmails : []), ...(wanted('history') ? historyEmails : [])];
  for (let from = 0; from < emails.length; from += 4) {
    await Promise.all(
      emails.slice(from, from + 4).map((email) => cli('user:create', '--email', email, '--password', password)),
    );
  }

  const chorusPort = await freePort();
  const helloPort = await freePort();
  const chorusUrl = `http://127.0.0.1:${chorusPort}`;
  const helloUrl = `http://127.0.0.1:${helloPort}`;
  const profile =
    values['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', path.resolve(values['cpu-prof'])];
  processes.push(
    await startProcess([...profile, serverMain], { ...chorusEnv, PORT: String(chorusPort) }, () =>
      answers(`${chorusUrl}/health`),
    ),
  );
  processes.push(
    await startProcess([path.join(root, 'bench/http/hello-world.mjs')], { PORT: String(helloPort) }, () =>
      answers(helloUrl),
    ),
  );

  const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  async function call(method, route, body) {
    const response = await fetch(`${chorusUrl}${route}`, {
      method,
      headers: auth,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  }
  /** New organizations on the Classic Professional plan (no users limit). */
  async function newOrganizations(count) {
    const ids = [];
    for (let index = 0; index < count; index += 1) {
      const { id } = await call('POST', '/organizations', { name: `Bench ${unique()}` });
      await call('POST', `/organizations/${id}/plan`, { line: 'classic', plan: 'professional' });
      ids.push(id);
    }
    return ids;
  }
  /** POST /organizations/:id/members, round-robin over `ids`, `perOrganization` new members each. */
  function addMembers(name, ids, perOrganization) {
    let next = 0;
    return load(name, {
      url: chorusUrl,
      amount: ids.length * perOrganization,
      // autocannon notices that the amount is done only at its next sample: at the default 1 s, a
      // run of 1.2 s counts as 2 s and every rate came out as the amount / 2 s (255/s, whatever the
      // server did). Sampling every 10 ms makes the duration, and so the rate, true to 10 ms.
      sampleInt: 10,
      requests: [
        {
          method: 'POST',
          headers: auth,
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
    });
  }

  // Sign-in needs the XSRF token of a page, bound to a pre-session (login CSRF): one browser's cookies.
  const page = await fetch(`${chorusUrl}/login`);
  if (!page.ok) throw new Error(`GET /login: ${page.status} (run \`npm run build:web\`)`);
  const cookies = page.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  const xsrf = decodeURIComponent(
    cookies.find((cookie) => cookie.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '',
  );
  const browser = { cookie: cookies.join('; '), 'x-xsrf-token': xsrf, 'content-type': 'application/json' };
  async function signIn(email) {
    const started = performance.now();
    const response = await fetch(`${chorusUrl}/login`, {
      method: 'POST',
      headers: browser,
      body: JSON.stringify({ username: email, password }),
    });
    await response.arrayBuffer();
    if (response.status !== 204) throw new Error(`POST /login: ${response.status}`);
    return performance.now() - started;
  }

  const readOrganization = (await newOrganizations(1))[0];
  for (let index = 0; index < 5; index += 1)
    await call('POST', `/organizations/${readOrganization}/members`, {
      email: `r-${index}@bench.example`,
      role: 'member',
    });
  let largeOrganizations = [];
  if (wanted('members')) {
    largeOrganizations = await newOrganizations(organizationsPerMeasure);
    const filling = Date.now();
    await addMembers('fill', largeOrganizations, largeOrganizationMembers);
    console.log(
      `${organizationsPerMeasure} organizations filled with ${largeOrganizationMembers} members each in ${((Date.now() - filling) / 1000).toFixed(1)} s`,
    );
  }
  const passwordHash = await argon2.hash(password, {
    type: argon2.argon2id,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  });

  /** argon2id verify alone, `connections` in flight, for `seconds`: what a login cannot be faster than. */
  async function rawVerify() {
    await settled();
    const until = performance.now() + seconds * 1000;
    let verified = 0;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < until) {
          if (!(await argon2.verify(passwordHash, password))) throw new Error('argon2 verify failed');
          verified += 1;
        }
      }),
    );
    return { rps: verified / seconds };
  }

  const measures = [];
  async function round(warmUp) {
    const duration = warmUp ? 1 : seconds;
    const measure = {};
    if (wanted('health')) {
      measure.hello = await load('hello world', { url: helloUrl, duration });
      measure.health = await load('GET /health', { url: `${chorusUrl}/health`, duration });
    }
    if (wanted('read')) {
      measure.organization = await load('GET /organizations/:id', {
        url: `${chorusUrl}/organizations/${readOrganization}`,
        headers: auth,
        duration,
      });
      measure.health2 = await load('GET /health', { url: `${chorusUrl}/health`, duration });
    }
    if (wanted('members')) {
      const fresh = await newOrganizations(organizationsPerMeasure);
      measure.addFresh = await addMembers('POST members, fresh organizations', fresh, warmUp ? 2 : addsPerOrganization);
      measure.addLarge = await addMembers(
        'POST members, large organizations',
        largeOrganizations,
        warmUp ? 2 : addsPerOrganization,
      );
      measure.health3 = await load('GET /health', { url: `${chorusUrl}/health`, duration });
    }
    if (wanted('logins')) {
      /**
       * POST /login round-robin over the users; `fromOwnAddress`: each user's own X-Forwarded-For (trusted from
       * loopback only).
       */
      const logins = (name, fromOwnAddress) => {
        let next = 0;
        return load(name, {
          url: chorusUrl,
          duration,
          requests: [
            {
              method: 'POST',
              path: '/login',
              headers: browser,
              setupRequest: (request) => {
                const user = (next += 1) % loginUsers;
                const headers = fromOwnAddress
                  ? { ...request.headers, 'x-forwarded-for': `192.0.2.${user + 1}` }
                  : request.headers;
                return { ...request, headers, body: JSON.stringify({ username: loginEmails[user], password }) };
              },
            },
          ],
        });
      };
      measure.logins = await logins('POST /login', false);
      // Its sign-ins past the address's throttle sleep before their check (up to maxDelayMs), which no CPU
      // shows: waited out, so that they neither run in the next measure nor stay outstanding on its users'
      // accounts (an account with three attempts outstanding slows the next: accountThrottlePolicy).
      await sleep(Math.max(addressThrottlePolicy.maxDelayMs, accountThrottlePolicy.maxDelayMs));
      // The same users, each from an address of their own: what a login costs without the per-address
      // throttle, which slows the 21st attempt in flight from one address (250 ms and up:
      // addressThrottlePolicy) and so bounds the measure above.
      measure.loginsManyAddresses = await logins('POST /login, an address per user', true);
      measure.argon2 = warmUp ? { rps: NaN } : await rawVerify();
    }
    if (wanted('history') && !warmUp) {
      const email = historyEmails[measures.length];
      const latencies = [];
      for (let index = 0; index < historySignIns; index += 1) latencies.push(await signIn(email));
      measure.history = {
        first: median(latencies.slice(0, historyWindow)),
        last: median(latencies.slice(-historyWindow)),
      };
    }
    return measure;
  }

  await round(true);
  for (let index = 0; index < rounds; index += 1) {
    const measure = await round(false);
    measures.push(measure);
    console.log(`round ${index + 1}/${rounds} done`);
  }

  report(measures);
  if (!values['skip-store-benches']) await storeBenches();
} finally {
  for (const child of processes.reverse()) await child.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------------

function median(numbers) {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function spread(numbers, digits = 2) {
  const sorted = [...numbers].sort((a, b) => a - b);
  return `${sorted[0].toFixed(digits)} / ${median(sorted).toFixed(digits)} / ${sorted.at(-1).toFixed(digits)}`;
}

function report(measures) {
  const ratio = (label, target, numerator, denominator) => {
    const values = measures
      .map((measure) => numerator(measure) / denominator(measure))
      .filter((value) => Number.isFinite(value));
    if (values.length === 0) return;
    const verdict = median(values) >= target ? 'met' : 'NOT met';
    console.log(`  ${label.padEnd(70)} ${spread(values, 3).padStart(22)}   target >= ${target}: ${verdict} (median)`);
  };
  const rate = (label, pick) => {
    const picked = measures.map(pick).filter((value) => value !== undefined);
    if (picked.length === 0) return;
    const latencies =
      picked[0].p50 === undefined
        ? ''
        : `   p50 ${spread(
            picked.map((m) => m.p50),
            1,
          )} ms   p99 ${spread(
            picked.map((m) => m.p99),
            1,
          )} ms`;
    console.log(
      `  ${label.padEnd(44)} ${spread(
        picked.map((m) => m.rps),
        0,
      ).padStart(24)} /s${latencies}`,
    );
  };
  console.log(
    `\nbench/http: ${measures.length} rounds, ${connections} connections, ${seconds} s per time-bound measure (min / median / max)`,
  );
  console.log('rates');
  rate('bare NestJS hello world, GET /', (m) => m.hello);
  rate('GET /health', (m) => m.health);
  rate('GET /organizations/:id', (m) => m.organization);
  rate('POST members, fresh organizations', (m) => m.addFresh);
  rate(`POST members, ~${largeOrganizationMembers}+ members`, (m) => m.addLarge);
  rate('POST /login', (m) => m.logins);
  rate('POST /login, an address per user', (m) => m.loginsManyAddresses);
  rate(`argon2id verify alone, ${connections} in flight`, (m) => m.argon2);
  if (measures[0].history !== undefined) {
    console.log(
      `  one user's sign-ins, median latency           first ${historyWindow}: ${spread(
        measures.map((m) => m.history.first),
        1,
      )} ms   ` +
        `last ${historyWindow} of ${historySignIns}: ${spread(
          measures.map((m) => m.history.last),
          1,
        )} ms`,
    );
  }
  console.log('ratios (min / median / max)');
  ratio(
    'POST members rps / GET /health rps',
    0.6,
    (m) => m.addFresh?.rps,
    (m) => m.health3?.rps,
  );
  ratio(
    `POST members at ${largeOrganizationMembers}+ members / fresh organizations`,
    0.8,
    (m) => m.addLarge?.rps,
    (m) => m.addFresh?.rps,
  );
  ratio(
    'GET /health rps / bare NestJS hello world',
    0.85,
    (m) => m.health?.rps,
    (m) => m.hello?.rps,
  );
  ratio(
    'GET /organizations/:id rps / GET /health',
    0.8,
    (m) => m.organization?.rps,
    (m) => m.health2?.rps,
  );
  ratio(
    'logins/s / raw argon2id verify/s (same parameters, concurrency)',
    0.9,
    (m) => m.logins?.rps,
    (m) => m.argon2?.rps,
  );
  ratio(
    'the same, each user from an address of their own',
    0.9,
    (m) => m.loginsManyAddresses?.rps,
    (m) => m.argon2?.rps,
  );
  ratio(
    `same user's sign-in rate, last ${historyWindow} of ${historySignIns} / first ${historyWindow}`,
    0.95,
    (m) => m.history?.first,
    (m) => m.history?.last,
  );
}

/** The two store ratios of the table come from the benches that measure them. */
async function storeBenches() {
  console.log('\nfrom bench/event-store and bench/projections (each run as it is, three times)');
  const writer = [];
  const rebuild = [];
  for (let index = 0; index < 3; index += 1) {
    const output = await run(process.execPath, [path.join(root, 'bench/event-store/run.js'), '--seconds', '4'], {});
    writer.push(Number(/port, 1 writer.*?([\d.]+)x raw/.exec(output)?.[1]));
  }
  const output = await run(process.execPath, [path.join(root, 'bench/projections/run.mjs'), '--rounds', '3'], {});
  for (const match of output.matchAll(/^round \d+: .*organizations rebuild ([\d.]+)x raw/gm))
    rebuild.push(Number(match[1]));
  console.log(
    `  ${'one writer, port / raw better-sqlite3, same durability'.padEnd(70)} ${spread(writer, 3).padStart(22)}   target >= 0.9`,
  );
  console.log(
    `  ${'read-model rebuild, 1M events / raw scan + JSON.parse'.padEnd(70)} ${spread(rebuild, 3).padStart(22)}   target >= 0.5`,
  );
}
