// Durable syncs per add-member of a new person, commands one after another: the built server runs under strace,
// which counts its fsync and fdatasync calls (read models and the key store included), by file.
// `npm run build:server`, then `node bench/commands/syncs.mjs [--adds 200]` (Debian's strace).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtServerEnvironment, chorusJson, freePort, untilHealthy } from '../support/built-server.mjs';

const addsAt = process.argv.indexOf('--adds');
const adds = addsAt === -1 ? 200 : Number(process.argv[addsAt + 1]);
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-syncs-'));
await chorusJson(dataDir, 'org:create', '--name', 'Acme');
await chorusJson(dataDir, 'org:plan', 'acme', '--line', 'classic', '--plan', 'enterprise');
const { key } = JSON.parse(
  await chorusJson(dataDir, 'api-key:create', '--name', 'bench', '--scopes', 'organizations:read,organizations:write'),
);
const port = await freePort();
const trace = path.join(dataDir, 'syncs.strace');
const server = spawn(
  'strace',
  [
    '-f',
    '-y',
    '-e',
    'trace=fsync,fdatasync',
    '-o',
    trace,
    process.execPath,
    path.join(root, 'dist/apps/api/src/main.js'),
  ],
  { env: builtServerEnvironment(dataDir, port), stdio: ['ignore', 'ignore', 'inherit'], detached: true },
);
// strace and the server it traces are one process group: both go when the bench does.
const stop = () => {
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {
    // gone already
  }
};
process.on('exit', stop);
const url = `http://127.0.0.1:${port}`;
await untilHealthy(server, url);
const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
await fetch(`${url}/organizations/acme/limits`, { method: 'PUT', headers, body: JSON.stringify({ users: 100_000 }) });
const add = async (index) => {
  const answer = await fetch(`${url}/organizations/acme/members`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: `person-${index}@example.com`, role: 'member' }),
  });
  if (answer.status !== 201) throw new Error(`add ${index}: ${answer.status} ${await answer.text()}`);
};
/** Each sync the trace holds, by the file it synced. */
const syncs = () =>
  readFileSync(trace, 'utf8')
    .split('\n')
    .map((line) => /f(?:data)?sync\(\d+<([^>]+)>/.exec(line)?.[1])
    .filter((file) => file !== undefined);
const settle = () => new Promise((resolve) => setTimeout(resolve, 3_000));

// A warm-up, so that the start's syncs (schemas, the first keys made ahead) are not counted.
for (let index = 0; index < 20; index += 1) await add(index);
await settle();
const before = syncs().length;
for (let index = 20; index < 20 + adds; index += 1) await add(index);
// The invitations the adds owe are recorded in the background: their syncs count.
await settle();
const counted = syncs().slice(before);
const byFile = {};
for (const file of counted) {
  const name = path.basename(file);
  byFile[name] = (byFile[name] ?? 0) + 1;
}
console.log(
  `${adds} adds of new people one after another: ${counted.length} syncs, ${(counted.length / adds).toFixed(2)} per add`,
);
for (const [file, count] of Object.entries(byFile).sort(([, a], [, b]) => b - a)) console.log(`  ${file}: ${count}`);
stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
