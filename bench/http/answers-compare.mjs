// Two builds' answers to the same raw requests (42: /health in several spellings, HEAD, OPTIONS, the read
// with no key, a wrong one and a good one, with HEAD, ?minPosition, bad queries and ids, add-member refusals,
// 404s, the SPA's pages, /docs, /session, /metrics, a bad encoding, /auth), compared line by line after
// normalising dates, ids, cookies' values, positions and the metrics' counts. Prints each answer that differs, then how many are the same.
// STRIP_SEC=1 also leaves the security headers out (to check the rest when a build changes them on purpose).
//   npm run build:server && node bench/http/answers-compare.mjs before/dist/apps/api/src/main.js dist/apps/api/src/main.js
// See README.md beside this file ("Seventh round").
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../support/free-port.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const [mainA, mainB] = process.argv.slice(2).map((main) => path.resolve(root, main));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const work = mkdtempSync(path.join(tmpdir(), 'chorus-answers-'));
async function start(main) {
  const port = await freePort();
  const env = { ...process.env, NODE_ENV: 'development', DATA_DIR: mkdtempSync(path.join(work, 'data-')), HOST: '127.0.0.1', SEED_DEMO: 'false', EVENTSTORE_CONNECTION_STRING: '', PORT: String(port) };
  const cli = (...args) => execFileSync(process.execPath, [path.join(root, 'bin/chorus.js'), ...args, '--json'], { env, encoding: 'utf8' });
  const key = JSON.parse(cli('api-key:create', '--name', 'bench', '--scopes', 'organizations:read,organizations:write')).key;
  const child = spawn(process.execPath, [main], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  const h = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const r = await fetch(`http://127.0.0.1:${port}/organizations`, { method: 'POST', headers: h, body: JSON.stringify({ name: 'Raw' }) });
  const { id } = await r.json();
  await fetch(`http://127.0.0.1:${port}/organizations/${id}/plan`, { method: 'POST', headers: h, body: JSON.stringify({ line: 'classic', plan: 'professional' }) });
  await sleep(300);
  return { child, port, key, id };
}
function raw(port, text) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (c) => (data += c));
    socket.on('end', () => resolve(data));
    socket.on('error', () => resolve(data));
    socket.write(text);
    setTimeout(() => socket.end(), 400);
  });
}
const requests = (s) => {
  const H = 'Host: 127.0.0.1\r\nConnection: close\r\n';
  const K = `Authorization: Bearer ${s.key}\r\n`;
  const list = [
    `GET /health HTTP/1.1\r\n${H}\r\n`, `GET /HEALTH HTTP/1.1\r\n${H}\r\n`, `GET /health/ HTTP/1.1\r\n${H}\r\n`, `GET /health?x=1 HTTP/1.1\r\n${H}\r\n`,
    `HEAD /health HTTP/1.1\r\n${H}\r\n`, `GET /health/live HTTP/1.1\r\n${H}\r\n`, `GET /health/ready HTTP/1.1\r\n${H}\r\n`,
    `GET /health HTTP/1.1\r\n${H}X-Forwarded-For: 1.2.3.4\r\nX-Correlation-Id: abc-123\r\n\r\n`,
    `GET /health HTTP/1.1\r\n${H}Accept: text/html\r\n\r\n`,
    `GET /organizations/${s.id} HTTP/1.1\r\n${H}\r\n`, `GET /organizations/${s.id} HTTP/1.1\r\n${H}Authorization: Bearer wrong\r\n\r\n`,
    `GET /organizations/${s.id} HTTP/1.1\r\n${H}${K}\r\n`, `GET /organizations/nope HTTP/1.1\r\n${H}${K}\r\n`,
    `HEAD /organizations/${s.id} HTTP/1.1\r\n${H}${K}\r\n`, `GET /organizations/${s.id}?minPosition=1 HTTP/1.1\r\n${H}${K}\r\n`,
    `GET /organizations/${s.id}?minPosition=x HTTP/1.1\r\n${H}${K}\r\n`, `GET /organizations/${s.id}?other=1 HTTP/1.1\r\n${H}${K}\r\n`,
    `GET /organizations/No%20such?minPosition=x HTTP/1.1\r\n${H}${K}\r\n`, `GET /organizations/${s.id}/ HTTP/1.1\r\n${H}${K}If-None-Match: *\r\n\r\n`,
    `GET /organizations/${s.id}/notification-recipients?minPosition=1 HTTP/1.1\r\n${H}${K}\r\n`, `GET /organizations/${s.id}/notification-recipients?x=1 HTTP/1.1\r\n${H}${K}\r\n`,
    `POST /organizations/${s.id}/members HTTP/1.1\r\n${H}\r\n`, `POST /organizations/${s.id}/members HTTP/1.1\r\n${H}${K}Content-Type: application/json\r\nContent-Length: 0\r\n\r\n`,
    `POST /organizations/${s.id}/members HTTP/1.1\r\n${H}${K}Content-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi`,
    `GET /nope HTTP/1.1\r\n${H}\r\n`, `GET /nope HTTP/1.1\r\n${H}Accept: text/html\r\n\r\n`, `OPTIONS /health HTTP/1.1\r\n${H}\r\n`, `DELETE /health HTTP/1.1\r\n${H}\r\n`,
    `GET / HTTP/1.1\r\n${H}\r\n`, `GET /login HTTP/1.1\r\n${H}Accept: text/html\r\n\r\n`, `GET /forgot HTTP/1.1\r\n${H}\r\n`, `GET /app HTTP/1.1\r\n${H}\r\n`, `GET /app/orgs HTTP/1.1\r\n${H}Accept: text/html\r\n\r\n`,
    `GET /assets/nothing.js HTTP/1.1\r\n${H}\r\n`, `GET /docs HTTP/1.1\r\n${H}\r\n`, `GET /docs/docs.css HTTP/1.1\r\n${H}\r\n`, `GET /docs/openapi.json HTTP/1.1\r\n${H}\r\n`,
    `GET /session HTTP/1.1\r\n${H}\r\n`, `GET /metrics HTTP/1.1\r\n${H}\r\n`, `GET /%E0%A4%A HTTP/1.1\r\n${H}\r\n`, `POST /login HTTP/1.1\r\n${H}Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
    `GET /auth/go/x HTTP/1.1\r\n${H}Accept: text/html\r\n\r\n`,
  ];
  return list;
};
const norm = (text, s) => text
  .replaceAll(s.id, '<ORG>')
  .replace(/Date: .*\r\n/g, 'Date: <D>\r\n')
  .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<UUID>')
  .replace(/(Set-Cookie: [^=]+=)[^;\r]*/g, '$1<V>')
  .replace(/"(position|revision|checkpoint|head)":\d+/g, '"$1":<N>')
  .replace(/\n(chorus|process|nodejs|http)_[^\n]*/g, '\n<metric>')
  .replace(/"(lagMs|durationMs)":[\d.]+/g, '"$1":<N>')
  .replace(process.env.STRIP_SEC ? /(Content-Security-Policy|Cross-Origin-Opener-Policy|Cross-Origin-Resource-Policy|Origin-Agent-Cluster|Referrer-Policy|X-Content-Type-Options|X-DNS-Prefetch-Control|X-Download-Options|X-Frame-Options|X-Permitted-Cross-Domain-Policies|X-XSS-Protection|Strict-Transport-Security): [^\r]*\r\n/g : /$^/, '')
  .replace(/(# HELP[\s\S]*)/, (m) => (process.env.STRIP_SEC ? '<metrics body>' : m));
const a = await start(mainA);
const b = await start(mainB);
let same = 0;
try {
  const ra = requests(a), rb = requests(b);
  for (let i = 0; i < ra.length; i += 1) {
    const x = norm(await raw(a.port, ra[i]), a);
    const y = norm(await raw(b.port, rb[i]), b);
    if (x === y) { same += 1; continue; }
    console.log(`### ${ra[i].split('\r\n')[0]} ${ra[i].includes('Accept: text/html') ? '(Accept: text/html)' : ''}`);
    const xl = x.split('\r\n'), yl = y.split('\r\n');
    const xs = new Set(xl), ys = new Set(yl);
    for (const l of xl) if (!ys.has(l)) console.log(`  - ${l.slice(0, 200)}`);
    for (const l of yl) if (!xs.has(l)) console.log(`  + ${l.slice(0, 200)}`);
    if (xl.filter((l) => ys.has(l)).join('|') !== yl.filter((l) => xs.has(l)).join('|')) console.log('  (order of the common lines differs)');
  }
  console.log(`${same} of ${ra.length} the same`);
} finally {
  a.child.kill();
  b.child.kill();
  await sleep(500);
  rmSync(work, { recursive: true, force: true });
}
