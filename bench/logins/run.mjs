// A sign-in must cost the same at a user's 200th sign-in as at their 1st, and logins/s must
// come within 10% of what argon2id alone allows at the same parameters and concurrency.
//   npm run build:server && node bench/logins/run.mjs
//   BENCH_ROUNDS=3 BENCH_CONCURRENCY=4 BENCH_SECONDS=6 BENCH_USERS=10 BENCH_SIGN_INS=200 BENCH_PARTS=throughput,history
//
// 1. logins/s over HTTP (a new browser each: login page, then POST /login; one user per connection) /
//    argon2id verify/s in this process, same parameters (the hasher's), same concurrency, same duration,
//    measured in alternating one-second slices so that both meet the same load of the shared machine.
// 2. The same user's 200th sign-in / their 1st: the POST /login latency of each user's 1st sign-in, one
//    at a time on an idle server (warmed up by other users' sign-ins), then 198 more each (4 at a time,
//    not timed), then their 200th, timed the same way; the ratio is median(1st) / median(200th) (1.0: as
//    fast; below: slower).
// Each round runs on a fresh DATA_DIR and server.
import argon2 from 'argon2';
import { performance } from 'node:perf_hooks';
import { argon2Parameters } from '../../dist/libs/identity/src/passwords/password-hasher.js';
import {
  dataDirectory,
  median,
  percentile,
  registerUsers,
  signIn,
  spread,
  startServer,
} from '../support/sign-in-server.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 4);
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const users = Number(process.env.BENCH_USERS ?? 10);
const signIns = Number(process.env.BENCH_SIGN_INS ?? 200);
const parts = (process.env.BENCH_PARTS ?? 'throughput,history').split(',');

/** `concurrency` loops doing `work(loop)` for `ms`: operations done and the time they took. */
async function slice(work, ms) {
  let done = 0;
  const started = performance.now();
  const stopAt = started + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, loop) => {
      while (performance.now() < stopAt) {
        await work(loop);
        done += 1;
      }
    }),
  );
  return { done, seconds: (performance.now() - started) / 1000 };
}

/**
 * Operations per second of `first` and of `second`, measured in alternating slices of a second (each
 * `seconds` in all), so that both meet the same machine: on this shared one, the load of other work
 * changes by twice within a minute, which two measurements made one after the other would read as a ratio.
 */
async function alternating(first, second) {
  const totals = [
    { done: 0, seconds: 0 },
    { done: 0, seconds: 0 },
  ];
  for (let index = 0; index < seconds; index += 1) {
    for (const [which, work] of [first, second].entries()) {
      const { done, seconds: took } = await slice(work, 1000);
      totals[which].done += done;
      totals[which].seconds += took;
    }
  }
  return totals.map(({ done, seconds: took }) => done / took);
}

async function throughputRound() {
  const data = dataDirectory('logins');
  const names = await registerUsers(data.dir, 'worker', concurrency);
  const server = await startServer(data.dir);
  try {
    const hash = await argon2.hash('correct horse battery staple', argon2Parameters);
    const latencies = [];
    const [verifies, logins] = await alternating(
      () => argon2.verify(hash, 'correct horse battery staple'),
      async (loop) => {
        const { status, ms } = await signIn(server.baseUrl, names[loop]);
        if (status !== 204) throw new Error(`sign-in answered ${status}`);
        latencies.push(ms);
      },
    );
    return { verifies, logins, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await server.stop();
    data.remove();
  }
}

async function historyRound() {
  const data = dataDirectory('logins-history');
  const names = await registerUsers(data.dir, 'user', users);
  const warmUp = await registerUsers(data.dir, 'warm-up', concurrency);
  const server = await startServer(data.dir);
  const timed = async () => {
    const samples = [];
    for (const name of names) {
      const { status, ms } = await signIn(server.baseUrl, name);
      if (status !== 204) throw new Error(`sign-in answered ${status}`);
      samples.push(ms);
    }
    return median(samples);
  };
  try {
    // Other users' sign-ins first, so that the 1st sign-ins timed meet a server as warm as the 200th do.
    await Promise.all(
      warmUp.map(async (name) => {
        for (let index = 0; index < 25; index += 1) await signIn(server.baseUrl, name);
      }),
    );
    const first = await timed();
    const queue = names.flatMap((name) => Array.from({ length: signIns - 2 }, () => name));
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
          const { status } = await signIn(server.baseUrl, name);
          if (status !== 204) throw new Error(`sign-in answered ${status}`);
        }
      }),
    );
    const last = await timed();
    return { first, last, ratio: first / last };
  } finally {
    await server.stop();
    data.remove();
  }
}

console.log(
  `Sign-in cost, ${rounds} rounds (min / median / max). argon2id m=${argon2Parameters.memoryCost} KiB, t=${argon2Parameters.timeCost}, p=${argon2Parameters.parallelism}.\n`,
);

const throughput = [];
for (let round = 1; parts.includes('throughput') && round <= rounds; round += 1) {
  const result = await throughputRound();
  throughput.push(result);
  console.log(
    `round ${round}: argon2id ${result.verifies.toFixed(1)} verify/s, logins ${result.logins.toFixed(1)}/s (p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms): ratio ${(result.logins / result.verifies).toFixed(3)}`,
  );
}
if (throughput.length > 0)
  console.log(
    `logins/s / argon2id verify/s, concurrency ${concurrency}, ${seconds} s each in 1 s slices: ${spread(
      throughput.map((r) => r.logins / r.verifies),
      3,
    )} (target >= 0.9)\n`,
  );

const history = [];
for (let round = 1; parts.includes('history') && round <= rounds; round += 1) {
  const result = await historyRound();
  history.push(result);
  console.log(
    `round ${round}: ${users} users, median POST /login of their 1st sign-in ${result.first.toFixed(1)} ms, of their ${signIns}th ${result.last.toFixed(1)} ms: ratio ${result.ratio.toFixed(3)}`,
  );
}
if (history.length > 0)
  console.log(
    `the same user's ${signIns}th sign-in / their 1st (speed, median latency 1st / ${signIns}th): ${spread(
      history.map((r) => r.ratio),
      3,
    )} (target >= 0.95)`,
  );
