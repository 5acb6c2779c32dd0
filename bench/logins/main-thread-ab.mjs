// Main-thread CPU per login of two builds, side by side: both servers run at once (each its own DATA_DIR
// and users), and fixed-rate sign-in slices alternate between them, so both meet the same load of a
// shared machine. CPU time from /proc/<pid>/stat (Linux), not wall time.
//   node bench/logins/main-thread-ab.mjs BEFORE_MAIN AFTER_MAIN
//     env: SLICES (6 per build), SECONDS_ (5 per slice), RATE (40 logins/s), NODE_ARGS (for both servers,
//          e.g. "--require stub.cjs" to take argon2id out of the measure), CONNECTIONS (16),
//          LOGIN_BY (username, or email as bench/http's logins measure signs in),
//          ENV_BEFORE / ENV_AFTER (settings for one side only, e.g. "PASSWORD_HASHES_AT_ONCE=4"; the same build
//          twice with two settings compares the settings). RATE=0: as fast as CONNECTIONS go (then compare the
//          logins/s of the slice pairs, and the whole process's CPU per login, argon2id's pool included).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { settingsOf, startSignInServer } from '../support/built-server.mjs';
import { cpuSeconds, cpuTimes } from '../support/process-cpu.mjs';
import { loginRequests, registerUsers } from '../support/sign-in-server.mjs';

const builds = process.argv.slice(2, 4).map((main) => path.resolve(main));
if (builds.length !== 2) throw new Error('usage: main-thread-ab.mjs BEFORE_MAIN AFTER_MAIN');
const slices = Number(process.env.SLICES ?? 6);
const seconds = Number(process.env.SECONDS_ ?? 5);
const rate = Number(process.env.RATE ?? 40);
const sideEnvs = [process.env.ENV_BEFORE, process.env.ENV_AFTER].map(settingsOf);
const connections = Number(process.env.CONNECTIONS ?? 16);
const users = 16;
/** registerUsers's names for them. */
const usernames = Array.from({ length: users }, (_, index) => (process.env.LOGIN_BY === 'email' ? `login-${index}@example.test` : `login-${index}`));
const nodeArgs = (process.env.NODE_ARGS ?? '').split(' ').filter(Boolean);

function load(server, duration) {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: server.url,
        connections,
        duration,
        ...(rate > 0 ? { overallRate: rate } : {}),
        requests: loginRequests(server.headers, users, (user) => usernames[user]),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
}

const servers = [];
try {
  for (const [index, main] of builds.entries()) {
    servers.push(await startSignInServer(main, { register: registerUsers, users, settings: sideEnvs[index], nodeArgs }));
  }
  for (const server of servers) await load(server, 2);
  const results = servers.map(() => []);
  const rates = servers.map(() => []);
  const wholes = servers.map(() => []);
  for (let slice = 0; slice < slices; slice += 1) {
    for (const [index, server] of servers.entries()) {
      // The main thread, and the whole process (every thread, argon2id's pool included).
      const before = cpuTimes(server.child.pid, server.child.pid);
      const wholeBefore = cpuSeconds(server.child.pid);
      const result = await load(server, seconds);
      const after = cpuTimes(server.child.pid, server.child.pid);
      const logins = result['2xx'];
      const whole = ((cpuSeconds(server.child.pid) - wholeBefore) * 1000) / logins;
      if (result.non2xx > 0 || result.errors > 0) console.log(`  ${result.non2xx} non-2xx, ${result.errors} errors`);
      const perLogin = ((after.user - before.user + after.system - before.system) * 1000) / logins;
      results[index].push(perLogin);
      rates[index].push(logins / seconds);
      wholes[index].push(whole);
      const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      console.log(`slice ${slice + 1} ${index === 0 ? 'before' : 'after '}: ${logins} logins, ${(logins / seconds).toFixed(1)}/s, main thread ${perLogin.toFixed(2)} ms CPU per login (user ${(((after.user - before.user) * 1000) / logins).toFixed(2)}), process ${whole.toFixed(2)} ms, p50 ${result.latency.p50} ms, load ${load1}`);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const [b, a] = results.map(median);
  console.log(`main-thread CPU per login, median of ${slices} slices: before ${b.toFixed(2)} ms, after ${a.toFixed(2)} ms (after / before ${(a / b).toFixed(3)})`);
  const ratios = results[0].map((value, index) => results[1][index] / value);
  console.log(`after / before per slice pair: ${ratios.map((value) => value.toFixed(3)).join(' ')}`);
  const [wb, wa] = wholes.map(median);
  console.log(`whole process CPU per login (argon2id included), median: before ${wb.toFixed(2)} ms, after ${wa.toFixed(2)} ms (after / before ${(wa / wb).toFixed(3)})`);
  const rateRatios = rates[0].map((value, index) => rates[1][index] / value);
  console.log(`logins/s, median: before ${median(rates[0]).toFixed(1)}, after ${median(rates[1]).toFixed(1)}; after / before per slice pair: ${rateRatios.map((value) => value.toFixed(3)).join(' ')} (median ${median(rateRatios).toFixed(3)})`);
} finally {
  for (const server of servers) await server.stop();
}
