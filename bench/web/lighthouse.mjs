// Lighthouse's performance, accessibility and best-practices scores, and the bytes a browser receives, of
// the login page and of a signed-in console page (/app, with the session cookie in the browser's jar),
// served by the real built server (temp DATA_DIR, an organization and its owner made with the command
// line) and audited in Debian's Chromium with Lighthouse's desktop preset. Lighthouse is not a project
// dependency (about 185 MB for a by-hand measurement): it runs through `npx lighthouse@12.8.2`, the last
// major that supports Node 20. Run `npm run build` first. Writes LIGHTHOUSE.md beside this file.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium as chromiumDriver } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LIGHTHOUSE = 'lighthouse@12.8.2';
const CHROME_FLAGS =
  '--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';

if (!existsSync(join(root, 'dist/apps/api/src/main.js')) || !existsSync(join(root, 'dist/web/index.html'))) {
  console.error('No build: run `npm run build` first.');
  process.exit(1);
}
if (!existsSync(chromium)) {
  console.error(`No Chromium at ${chromium}: install Debian's chromium or set CHROMIUM_PATH.`);
  process.exit(1);
}

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function waitForHealth(url) {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server did not answer ${url}`);
}

const dataDir = mkdtempSync(join(tmpdir(), 'chorus-lighthouse-'));
const port = await freePort();
// Production: the page and the manifest are read once, as a deployment serves them.
const environment = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: String(port),
  HOST: '127.0.0.1',
  SEED_DEMO: 'false',
  LOG_LEVEL: 'warn',
  NODE_ENV: 'production',
  SESSION_SECRET: 'lighthouse-session-secret-0123456789abcdef',
  PUBLIC_URL: `http://localhost:${port}`,
  SSO_SECRET_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
};
const owner = { email: 'owner@lighthouse.example', password: 'lighthouse-granite-4471' };
const chorus = (...args) =>
  execFileSync(process.execPath, [join(root, 'bin/chorus.js'), ...args], {
    env: environment,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
chorus('org:create', '--name', 'Lighthouse', '--id', 'lighthouse');
chorus('org:plan', 'lighthouse', '--line', 'classic', '--plan', 'essential');
chorus('user:create', '--email', owner.email, '--password', owner.password, '--org', 'lighthouse', '--role', 'owner');
const server = spawn(process.execPath, [join(root, 'dist/apps/api/src/main.js')], {
  env: environment,
  stdio: ['ignore', 'ignore', 'inherit'],
});

const cookiesOf = (response) => response.headers.getSetCookie().map((cookie) => cookie.split(';')[0]);

/** Signs in as the form does (the XSRF cookie from the page, echoed in a header): the cookies a browser then holds. */
async function signIn(base) {
  const page = await fetch(`${base}/login`);
  const cookies = cookiesOf(page);
  const xsrf = decodeURIComponent(
    cookies.find((cookie) => cookie.startsWith('XSRF-TOKEN='))?.slice('XSRF-TOKEN='.length) ?? '',
  );
  const answer = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: cookies.join('; '), 'x-xsrf-token': xsrf },
    body: JSON.stringify({ username: owner.email, password: owner.password }),
  });
  if (answer.status !== 204) throw new Error(`POST /login answered ${answer.status}: ${await answer.text()}`);
  return [
    ...cookies.filter((cookie) => !cookiesOf(answer).some((fresh) => fresh.split('=')[0] === cookie.split('=')[0])),
    ...cookiesOf(answer),
  ].join('; ');
}

/**
 * Lighthouse's Chromium, or (port) one already running: a console page's own fetches are CORS-mode, and
 * Chromium sends them no Cookie given as an extra header, so the signed-in audit puts the session in
 * the jar of a browser started here (Lighthouse's storage reset keeps cookies) and audits there.
 */
async function audit(url, port) {
  const report = join(dataDir, `report-${Math.random().toString(36).slice(2)}.json`);
  const args = [
    '--yes',
    LIGHTHOUSE,
    url,
    '--quiet',
    '--preset=desktop',
    `--chrome-flags=${CHROME_FLAGS}`,
    '--only-categories=performance,accessibility,best-practices',
    ...(port === undefined ? [] : [`--port=${port}`]),
    '--output=json',
    `--output-path=${report}`,
  ];
  // Not synchronous: the browser started here talks to this process, which must keep reading it meanwhile.
  await new Promise((resolve, reject) => {
    const child = spawn('npx', args, {
      env: { ...process.env, CHROME_PATH: chromium },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`lighthouse exited ${code}`))));
  });
  return JSON.parse(readFileSync(report, 'utf8'));
}

function rowsOf(result) {
  const score = (category) => Math.round(result.categories[category].score * 100);
  const metric = (audit) => result.audits[audit].displayValue;
  const requests = result.audits['network-requests'].details.items;
  const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
  const sum = (items) => items.reduce((total, item) => total + (item.transferSize ?? 0), 0);
  return [
    ['performance', score('performance')],
    ['accessibility', score('accessibility')],
    ['best practices', score('best-practices')],
    ['first contentful paint', metric('first-contentful-paint')],
    ['largest contentful paint', metric('largest-contentful-paint')],
    ['total blocking time', metric('total-blocking-time')],
    ['cumulative layout shift', metric('cumulative-layout-shift')],
    ['requests', requests.length],
    ['bytes over the wire (all)', kB(sum(requests))],
    ['of which scripts', kB(sum(requests.filter((item) => item.resourceType === 'Script')))],
    ['of which styles', kB(sum(requests.filter((item) => item.resourceType === 'Stylesheet')))],
  ];
}

try {
  const base = `http://localhost:${port}`;
  await waitForHealth(`${base}/health`);
  const pages = [];
  console.log(`auditing ${base}/login with ${LIGHTHOUSE} (desktop preset)`);
  pages.push(['`/login`', await audit(`${base}/login`)]);
  const cookie = await signIn(base);
  console.log(`auditing ${base}/app signed in (the session cookie in the browser's jar)`);
  const debuggingPort = await freePort();
  const signedIn = await chromiumDriver.launchPersistentContext(
    mkdtempSync(join(tmpdir(), 'chorus-lighthouse-profile-')),
    {
      executablePath: chromium,
      headless: true,
      args: [`--remote-debugging-port=${debuggingPort}`, '--no-sandbox', '--disable-gpu', '--disable-quic'],
    },
  );
  try {
    await signedIn.addCookies(
      cookie.split('; ').map((pair) => ({
        name: pair.slice(0, pair.indexOf('=')),
        value: pair.slice(pair.indexOf('=') + 1),
        url: base,
      })),
    );
    pages.push(['`/app`, signed in', await audit(`${base}/app`, debuggingPort)]);
  } finally {
    await signedIn.close();
  }
  const final = pages[1][1].finalDisplayedUrl ?? pages[1][1].finalUrl;
  if (!new URL(final).pathname.startsWith('/app')) throw new Error(`/app ended at ${final}: the session did not hold`);
  const tables = pages.map(([name, result]) => [name, rowsOf(result)]);
  for (const [name, rows] of tables) {
    console.log(name);
    for (const [measure, value] of rows) console.log(`  ${measure.padEnd(28)} ${value}`);
  }
  const measures = tables[0][1].map(([measure]) => measure);
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
  const chrome = pages[0][1].environment.hostUserAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? '?';
  writeFileSync(
    join(here, 'LIGHTHOUSE.md'),
    [
      '# Lighthouse on the login page and a console page',
      '',
      `Measured by \`node bench/web/lighthouse.mjs\` (${LIGHTHOUSE}, Chromium ${chrome}, the desktop preset) against the built`,
      `server in production mode on this 2-core machine, on ${new Date().toISOString().slice(0, 10)}, load average ${load} (1, 5, 15 min) at the end.`,
      "`/app` is audited signed in (the session cookie in the browser's jar) and lands on the only organization's overview.",
      'Bytes over the wire are what Chromium received (it accepts br: the precompressed assets), headers included.',
      '',
      `| measure | ${tables.map(([name]) => name).join(' | ')} |`,
      `|---|${tables.map(() => '---:').join('|')}|`,
      ...measures.map((measure, index) => `| ${measure} | ${tables.map(([, rows]) => rows[index][1]).join(' | ')} |`),
      '',
    ].join('\n'),
  );
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
