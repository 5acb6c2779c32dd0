// Counts the production files a member add runs, from the route to the append: V8's precise coverage of one
// `POST /organizations/:id/members` on the built server (`npm run build:server` first), after a warm-up add.
// Counted: every file under dist/apps and dist/libs with a function that ran until the organization's append
// (coverage taken from inside the store's append); the event store adapter's files as one (its internals are the
// store's, not the write path's); the read side (libs/read-models) apart. `node scripts/write-path.mjs [--list]`.
import { Session } from 'node:inspector/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const dataDir = mkdtempSync(join(tmpdir(), 'chorus-write-path-'));
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const { loadConfig } = await import(pathToFileURL(join(dist, 'libs/config/src/index.js')).href);
const { EVENT_STORE } = await import(pathToFileURL(join(dist, 'libs/event-store/src/index.js')).href);
const { createApp, ApiKeys, MEMBER_INVITATIONS } = await import(
  pathToFileURL(join(dist, 'apps/api/src/index.js')).href
);
const config = loadConfig({
  NODE_ENV: 'test',
  SEED_DEMO: 'false',
  LOG_LEVEL: 'silent',
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
});
const app = await createApp(config);
await app.listen(0, '127.0.0.1');
const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
const context = { actor: 'cli', correlationId: 'write-path', causationId: 'write-path', origin: {} };
const { key } = await app
  .get(ApiKeys)
  .create({ name: 'write-path', scopes: ['organizations:read', 'organizations:write'] }, context);
const call = (method, path, body) =>
  fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((answer) => answer.json());

await call('POST', '/organizations', { id: 'path', name: 'Path' });
await call('POST', '/organizations/path/plan', { line: 'classic', plan: 'professional' });
const warm = await call('POST', '/organizations/path/members', { email: 'warm@example.com', role: 'member' });
// The warm-up's invitation is mailed by a reaction after its answer: let it finish, so its files are not counted.
await app.get(MEMBER_INVITATIONS).handledUpTo(BigInt(warm.position));
// The coverage is taken as the add appends to the organization's stream: what ran from the request's arrival to there.
const store = app.get(EVENT_STORE);
const append = store.append.bind(store);
let atAppend;
store.append = async (streamId, events, expected) => {
  if (atAppend === null && streamId === 'organization-path')
    atAppend = (await session.post('Profiler.takePreciseCoverage')).result;
  return append(streamId, events, expected);
};
await session.post('Profiler.takePreciseCoverage'); // resets the counts: what follows is the add alone
atAppend = null;
await call('POST', '/organizations/path/members', { email: 'measured@example.com', role: 'member' });
const result = atAppend;
await app.close();
rmSync(dataDir, { recursive: true, force: true });

const ran = new Set();
for (const script of result) {
  if (!script.url.startsWith('file://') || !script.functions.some((fn) => fn.ranges.some((range) => range.count > 0)))
    continue;
  const path = relative(dist, fileURLToPath(script.url));
  if (path.startsWith('..') || !/^(apps|libs)\//.test(path) || path.startsWith('libs/read-models/')) continue;
  ran.add(
    path.startsWith('libs/event-store/') ? 'libs/event-store (the adapter, as one)' : path.replace(/\.js$/, '.ts'),
  );
}
const files = [...ran].sort();
console.log(`A member add runs ${files.length} production files from the route to the append.`);
if (process.argv.includes('--list')) for (const file of files) console.log(`  ${file}`);
