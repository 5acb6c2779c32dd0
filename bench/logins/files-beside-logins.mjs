// What a flood of sign-ins does to the server's file work: GET of a static asset (fs open/read/close on
// libuv's pool, where argon2id runs too) while 32 connections sign in, with two settings side by side.
//   npm run build && node bench/logins/files-beside-logins.mjs [SERVER_MAIN]
//     env: ENV_A ("PASSWORD_HASHES_AT_ONCE=4"), ENV_B ("PASSWORD_HASHES_AT_ONCE=2"), ROUNDS (4), FETCHES (15 per round and side)
import { readdirSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { settingsOf, startSignInServer } from '../support/built-server.mjs';
import { loginRequests, registerUsers } from '../support/sign-in-server.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const main = path.resolve(process.argv[2] ?? path.join(root, 'dist/apps/api/src/main.js'));
const asset = readdirSync(path.join(path.dirname(main), '../../../web/assets')).find((name) => name.endsWith('.svg') || name.endsWith('.css'));
const rounds = Number(process.env.ROUNDS ?? 4);
const fetches = Number(process.env.FETCHES ?? 15);
const users = 16;
const sides = [process.env.ENV_A ?? 'PASSWORD_HASHES_AT_ONCE=4', process.env.ENV_B ?? 'PASSWORD_HASHES_AT_ONCE=2'];

function flood(server) {
  return autocannon({
    url: server.url,
    connections: 32,
    duration: 600,
    requests: loginRequests(server.headers, users, (user) => `login-${user}@example.test`),
  });
}

const servers = [];
const latencies = sides.map(() => []);
try {
  for (const settings of sides) {
    servers.push({ ...(await startSignInServer(main, { register: registerUsers, users, settings: settingsOf(settings) })), settings });
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, server] of servers.entries()) {
      const load = flood(server);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (let fetchIndex = 0; fetchIndex < fetches; fetchIndex += 1) {
        const started = performance.now();
        const answer = await fetch(`${server.url}/assets/${asset}`);
        await answer.arrayBuffer();
        if (!answer.ok) throw new Error(`GET /assets/${asset}: ${answer.status}`);
        latencies[index].push(performance.now() - started);
      }
      load.stop();
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  }
  const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];
  for (const [index, settings] of sides.entries()) {
    console.log(`${settings}: GET /assets/${asset} during 32 connections of sign-ins, p50 ${percentile(latencies[index], 50).toFixed(1)} ms, p90 ${percentile(latencies[index], 90).toFixed(1)} ms, max ${Math.max(...latencies[index]).toFixed(1)} ms (${latencies[index].length} fetches), load ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
  }
} finally {
  for (const server of servers) await server.stop();
}
