// The built server (`dist/apps/api/src/main.js`) as its own process for the benches: a free port (free-port.mjs),
// and the environment it starts with (embedded SQLite store in `dataDir`, projections inline, no demo data).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.mjs';

export { freePort };

export const builtServerEnvironment = (dataDir, port) => ({
  ...process.env,
  NODE_ENV: 'development',
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: String(port),
  SEED_DEMO: 'false',
  LOG_LEVEL: 'warn',
  EVENTSTORE_CONNECTION_STRING: '',
});

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The root of the build a server's `dist/apps/api/src/main.js` belongs to: its own command line writes the stores it
 * reads.
 */
export const buildRootOf = (serverMain) => path.resolve(path.dirname(serverMain), '../../../..');

/** `chorus <args> --json` on `dataDir` (the built command line): its standard output, once it exits 0. */
export function chorusJson(dataDir, ...args) {
  return chorusJsonOf(root, dataDir, ...args);
}

/** chorusJson with the command line of the build at `build`. */
export function chorusJsonOf(build, dataDir, ...args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(build, 'bin/chorus.js'), ...args, '--json'], {
      cwd: build,
      env: builtServerEnvironment(dataDir, 0),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`chorus ${args.join(' ')} exited ${code}`)),
    );
  });
}

/** Resolves once the server `child` answers `url`/health; throws if it exits first. */
export async function untilHealthy(child, url) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server at ${url} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The headers a browser's POST /login carries: the sign-in page's pre-session and XSRF cookies, and the token. */
export async function signInPageHeaders(url) {
  const page = await fetch(`${url}/login`);
  const cookies = page.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);
  const xsrf = decodeURIComponent(
    cookies.find((cookie) => cookie.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '',
  );
  return { cookie: cookies.join('; '), 'x-xsrf-token': xsrf, 'content-type': 'application/json' };
}

/**
 * Settings written as `NAME=value NAME=value` (a value may hold `=`), as the benches take them from the environment.
 */
export function settingsOf(text) {
  return Object.fromEntries(
    (text ?? '')
      .split(' ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

/**
 * A built server (`main`) on a fresh DATA_DIR holding `users` users registered by `register` (sign-in-server.mjs's
 * registerUsers, named login-<n>), with its request log (unlike builtServerEnvironment's), behind a trusted loopback
 * proxy, `settings` over its environment and `nodeArgs` before `main`. Answers the sign-in page's headers, and
 * `stop()`.
 */
export async function startSignInServer(main, { register, users, settings = {}, nodeArgs = [] }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-sign-in-bench-'));
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    TRUST_PROXY: 'loopback',
    SEED_DEMO: 'false',
    EVENTSTORE_CONNECTION_STRING: '',
  };
  delete env.PROJECTIONS;
  delete env.LOG_LEVEL;
  await register(dataDir, 'login', users);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, [...nodeArgs, main], {
    cwd: root,
    env: { ...env, ...settings, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await untilHealthy(child, url);
  const headers = await signInPageHeaders(url);
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { main, child, url, headers, stop };
}
