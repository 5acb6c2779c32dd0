// Entitlements, as ratios measured in one run (min / median / max over the rounds): OFREP over HTTP against
// GET /health on the same server, and the in-process provider against the OpenFeature SDK's own
// InMemoryProvider holding the same flags, both through the SDK.
//   npm run build && node bench/entitlements/run.mjs [--rounds 3] [--seconds 5] [--connections 32]
// See README.md beside this file.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { InMemoryProvider, OpenFeature } from '@openfeature/server-sdk';
import autocannon from 'autocannon';
import { ChorusEntitlementsProvider } from '../../dist/libs/entitlements-client/src/index.js';
import { builtServerEnvironment, freePort, untilHealthy, chorusJson } from '../support/built-server.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: { rounds: { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' } },
});
const rounds = Number(values.rounds ?? 3);
const seconds = Number(values.seconds ?? 5);
const connections = Number(values.connections ?? 32);
/** Evaluations per in-process measure. */
const evaluations = 200_000;

/** Requests per second of one autocannon run; anything but the expected status stops the bench. */
async function rate(name, options, expected = '2xx') {
  const result = await new Promise((resolve, reject) =>
    autocannon({ connections, duration: seconds, ...options }, (error, done) =>
      error ? reject(error) : resolve(done),
    ),
  );
  const answered = result[expected];
  if (result.errors > 0 || result.timeouts > 0 || answered !== result.requests.total) {
    throw new Error(
      `${name}: ${result.requests.total - answered} answers not ${expected}, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return answered / result.duration;
}

/** Evaluations per second through an OpenFeature client, alternating a boolean and an object flag. */
async function evaluationRate(client, targetingKey) {
  const context = { targetingKey };
  const started = process.hrtime.bigint();
  for (let index = 0; index < evaluations; index += 2) {
    await client.getBooleanValue('chorus.feedback', false, context);
    await client.getObjectValue('limits.users', {}, context);
  }
  return evaluations / (Number(process.hrtime.bigint() - started) / 1e9);
}

const spread = (ratios) => {
  const sorted = [...ratios].sort((a, b) => a - b);
  return `${sorted[0].toFixed(3)} / ${sorted[Math.floor(sorted.length / 2)].toFixed(3)} / ${sorted.at(-1).toFixed(3)}`;
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-entitlements-'));
let server;
try {
  const key = JSON.parse(
    await chorusJson(dataDir, 'api-key:create', '--name', 'bench', '--scopes', 'entitlements:read,organizations:write'),
  ).key;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [path.join(root, 'dist/apps/api/src/main.js')], {
    cwd: root,
    env: builtServerEnvironment(dataDir, port),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await untilHealthy(server, url);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const call = async (route, body) =>
    (await fetch(`${url}${route}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
  const { id } = await call('/organizations', { name: 'Bench' });
  await call(`/organizations/${id}/plan`, { line: 'chorus', plan: 'teams' });
  const body = JSON.stringify({ context: { targetingKey: id } });
  const bulk = await fetch(`${url}/ofrep/v1/evaluate/flags`, { method: 'POST', headers, body });
  const etag = bulk.headers.get('etag');
  const flags = (await bulk.json()).flags;

  await OpenFeature.setProviderAndWait('chorus', new ChorusEntitlementsProvider({ baseUrl: url, apiKey: key }));
  await OpenFeature.setProviderAndWait(
    'memory',
    new InMemoryProvider(
      Object.fromEntries(
        flags.map((flag) => [flag.key, { variants: { on: flag.value }, defaultVariant: 'on', disabled: false }]),
      ),
    ),
  );
  const inProcess = OpenFeature.getClient('chorus');
  const inMemory = OpenFeature.getClient('memory');

  const ratios = { single: [], bulk304: [], provider: [] };
  for (let round = 0; round <= rounds; round += 1) {
    const health = await rate('GET /health', { url: `${url}/health` });
    const single = await rate('OFREP one flag', {
      url: `${url}/ofrep/v1/evaluate/flags/plan`,
      method: 'POST',
      headers,
      body,
    });
    const notModified = await rate(
      'OFREP bulk, 304',
      { url: `${url}/ofrep/v1/evaluate/flags`, method: 'POST', headers: { ...headers, 'if-none-match': etag }, body },
      '3xx',
    );
    const memory = await evaluationRate(inMemory, id);
    const provider = await evaluationRate(inProcess, id);
    const line = `health ${health.toFixed(0)}/s, one flag ${single.toFixed(0)}/s, bulk 304 ${notModified.toFixed(0)}/s; in-process ${provider.toFixed(0)}/s, InMemoryProvider ${memory.toFixed(0)}/s`;
    console.log(`${round === 0 ? 'warm-up' : `round ${round}`}: ${line}`);
    if (round === 0) continue;
    ratios.single.push(single / health);
    ratios.bulk304.push(notModified / health);
    ratios.provider.push(provider / memory);
  }
  console.log(`OFREP one flag / GET /health (target >= 0.8): ${spread(ratios.single)}`);
  console.log(
    `OFREP bulk with a matching If-None-Match (304) / GET /health (target >= 0.9): ${spread(ratios.bulk304)}`,
  );
  console.log(`in-process provider / InMemoryProvider, through the SDK (target >= 0.9): ${spread(ratios.provider)}`);
} finally {
  await OpenFeature.close();
  server?.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
