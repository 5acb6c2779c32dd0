// Lighthouse's performance, accessibility and best-practices scores of the login page, served by the
// real built server (temp DATA_DIR) and audited in Debian's Chromium. Lighthouse is not a project
// dependency (about 185 MB for a by-hand measurement): it runs through `npx lighthouse@12.8.2`, the last
// major that supports Node 20. Run `npm run build` first. Writes LIGHTHOUSE.md beside this file.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '../..');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LIGHTHOUSE = 'lighthouse@12.8.2';
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync';

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
const server = spawn(process.execPath, [join(root, 'dist/apps/api/src/main.js')], {
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', LOG_LEVEL: 'warn' },
  stdio: 'ignore',
});
const report = join(dataDir, 'report.json');
try {
  await waitForHealth(`http://127.0.0.1:${port}/health`);
  const url = `http://localhost:${port}/login`;
  console.log(`auditing ${url} with ${LIGHTHOUSE} (mobile emulation and throttling, Lighthouse's defaults)`);
  execFileSync('npx', ['--yes', LIGHTHOUSE, url, '--quiet', `--chrome-flags=${CHROME_FLAGS}`, '--only-categories=performance,accessibility,best-practices', '--output=json', `--output-path=${report}`], {
    env: { ...process.env, CHROME_PATH: chromium },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const result = JSON.parse(readFileSync(report, 'utf8'));
  const score = (category) => Math.round(result.categories[category].score * 100);
  const metric = (audit) => result.audits[audit].displayValue;
  const rows = [
    ['performance', score('performance')],
    ['accessibility', score('accessibility')],
    ['best practices', score('best-practices')],
    ['first contentful paint', metric('first-contentful-paint')],
    ['largest contentful paint', metric('largest-contentful-paint')],
    ['total blocking time', metric('total-blocking-time')],
    ['cumulative layout shift', metric('cumulative-layout-shift')],
  ];
  for (const [name, value] of rows) console.log(`${name.padEnd(26)} ${value}`);
  writeFileSync(
    join(here, 'LIGHTHOUSE.md'),
    [
      '# Lighthouse on the login page',
      '',
      `Measured by \`node bench/web/lighthouse.mjs\` (${LIGHTHOUSE}, Chromium ${result.environment.hostUserAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? '?'}, Lighthouse's`,
      "mobile emulation with simulated throttling) against the built server on this 2-core machine, on " + new Date().toISOString().slice(0, 10) + '.',
      '',
      '| measure | value |',
      '|---|---|',
      ...rows.map(([name, value]) => `| ${name} | ${value} |`),
      '',
    ].join('\n'),
  );
} finally {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
