// What the sign-in benches share: users registered into a fresh store by the command line's context (as
// `chorus user:create` does: the same modules, sealing and personal keys as the server), the real server started
// on it as its own process (`node dist/apps/api/src/main.js`, default settings), and a browser's sign-in over
// HTTP (the login page for its XSRF cookie, then POST /login).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createCliContext } from '../../dist/apps/cli/src/cli-context.js';
import { IDENTITY } from '../../dist/apps/api/src/index.js';
import { loadConfig } from '../../dist/libs/config/src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

export const password = 'correct horse battery staple';

/** A new, empty DATA_DIR; `remove()` when done. */
export function dataDirectory(name) {
  const dir = mkdtempSync(join(tmpdir(), `chorus-bench-${name}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Registers `count` users named `${prefix}-<n>` (username and `${prefix}-<n>@example.test`), four at a time; answers
 * their
 * usernames. Through the command line's context on the settings startServer gives the server (DATA_DIR, defaults), so
 * both
 * use the same personal keys (the identifier names' key) and the session secret it keeps in DATA_DIR/session-secret.
 */
export async function registerUsers(dataDir, prefix, count) {
  const context = await createCliContext(loadConfig({ DATA_DIR: dataDir, SEED_DEMO: 'false' }));
  try {
    const identity = context.app.get(IDENTITY);
    const names = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
    let next = 0;
    const worker = async () => {
      while (next < names.length) {
        const username = names[next++];
        await identity.registration.register(
          { email: `${username}@example.test`, username, password },
          context.commandContext('bench'),
        );
      }
    };
    await Promise.all(Array.from({ length: 4 }, worker));
    return names;
  } finally {
    await context.close();
  }
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The server on `dataDir`, as `npm start` runs it (`nodeOptions`: e.g. `--cpu-prof` to profile it); `stop()` ends it.
 */
export async function startServer(dataDir, settings = {}, nodeOptions = []) {
  const port = await freePort();
  const child = spawn(process.execPath, [...nodeOptions, join(root, 'dist/apps/api/src/main.js')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      ...settings,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (const started = performance.now(); ;) {
    try {
      if ((await fetch(`${baseUrl}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 30_000) throw new Error('the server did not start within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/** A new browser signs in: the login page (its XSRF cookie), then POST /login, which alone is timed. */
export async function signIn(baseUrl, username, secret = password, headers = {}) {
  const page = await fetch(`${baseUrl}/login`, { headers: { accept: 'text/html', ...headers } });
  await page.arrayBuffer();
  const cookies = page.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  const xsrf = cookies.find((cookie) => cookie.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '';
  const started = performance.now();
  const answer = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: cookies.join('; '),
      'x-xsrf-token': decodeURIComponent(xsrf),
      ...headers,
    },
    body: JSON.stringify({ username, password: secret }),
  });
  await answer.arrayBuffer();
  return { status: answer.status, ms: performance.now() - started };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** min / median / max of a few rounds. */
export const spread = (values, digits = 2) =>
  `${Math.min(...values).toFixed(digits)} / ${median(values).toFixed(digits)} / ${Math.max(...values).toFixed(digits)}`;

/**
 * autocannon's `requests` for a browser's POST /login, one user after another (`usernameOf(n)` for n in 0..users-1),
 * each user from an address of their own (X-Forwarded-For, for a server behind a trusted loopback proxy).
 */
export function loginRequests(headers, users, usernameOf) {
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/login',
      headers,
      setupRequest: (request) => {
        const user = (next += 1) % users;
        return {
          ...request,
          headers: { ...request.headers, 'x-forwarded-for': `192.0.2.${user + 1}` },
          body: JSON.stringify({ username: usernameOf(user), password }),
        };
      },
    },
  ];
}
