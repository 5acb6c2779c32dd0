// The built server (`dist/apps/api/src/main.js`) as its own process for the benches: a free port (free-port.mjs),
// and the environment it starts with (embedded SQLite store in `dataDir`, projections inline, no demo data).
export { freePort } from './free-port.mjs';

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
  const xsrf = decodeURIComponent(cookies.find((cookie) => cookie.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '');
  return { cookie: cookies.join('; '), 'x-xsrf-token': xsrf, 'content-type': 'application/json' };
}
