// A failed sign-in must take as long for a real account as for a name that is nobody's, so
// that timing does not tell which accounts exist. The tests check that both do the same work (store
// reads, appends, argon2id checks); this measures what difference is left, over HTTP.
//   npm run build && node bench/login-timing/run.mjs
//   BENCH_ROUNDS=3 BENCH_ACCOUNTS=100
//
// Each round: for every one of BENCH_ACCOUNTS real accounts, one wrong password for it and one for a
// name that matches no account, in alternation (the order swapped at each pair), one request at a time,
// each from an address of its own (X-Forwarded-For through TRUST_PROXY=loopback) so that no throttle
// delay applies: every account and name gets one attempt per round, three in all, before any delay.
// The POST /login latency of each is recorded; the figure is the difference of the medians.
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
const accounts = Number(process.env.BENCH_ACCOUNTS ?? 100);

const data = dataDirectory('login-timing');
const names = await registerUsers(data.dir, 'account', accounts);
// On main before TRUST_PROXY existed, a proxy on loopback was trusted as this setting now says.
const server = await startServer(data.dir, { TRUST_PROXY: 'loopback' });
const address = (round, index, kind) => ({ 'x-forwarded-for': `10.${round}.${index}.${kind === 'real' ? 1 : 2}` });

async function attempt(kind, round, index) {
  const username = kind === 'real' ? names[index] : `nobody-${index}`;
  const { status, ms } = await signIn(server.baseUrl, username, 'not the password', address(round, index, kind));
  if (status !== 401) throw new Error(`${kind} ${username}: answered ${status}, not 401`);
  return ms;
}

try {
  // Warm up on names of neither kind measured.
  for (let index = 0; index < 20; index += 1)
    await signIn(server.baseUrl, `warm-up-${index}`, 'x', address(9, index, 'warm'));
  console.log(
    `Failed sign-ins, POST /login latency, ${accounts} real accounts and ${accounts} names that are nobody's per round.\n`,
  );
  const differences = [];
  const pairedDifferences = [];
  for (let round = 1; round <= rounds; round += 1) {
    const samples = { real: [], unknown: [] };
    for (let index = 0; index < accounts; index += 1) {
      for (const kind of index % 2 === 0 ? ['real', 'unknown'] : ['unknown', 'real'])
        samples[kind].push(await attempt(kind, round, index));
    }
    const real = median(samples.real);
    const unknown = median(samples.unknown);
    // Each pair ran back to back: the median of their differences is less sensitive to the machine's drift.
    const paired = median(samples.real.map((ms, index) => ms - samples.unknown[index]));
    differences.push(real - unknown);
    pairedDifferences.push(paired);
    console.log(
      `round ${round}: real account p50 ${real.toFixed(2)} ms (p90 ${percentile(samples.real, 90).toFixed(2)}), ` +
        `nobody's p50 ${unknown.toFixed(2)} ms (p90 ${percentile(samples.unknown, 90).toFixed(2)}): difference of medians ${(real - unknown).toFixed(2)} ms ` +
        `(${(((real - unknown) / unknown) * 100).toFixed(1)}%), median of paired differences ${paired.toFixed(2)} ms`,
    );
  }
  console.log(
    `\nreal account - nobody's, difference of medians (min / median / max of ${rounds} rounds): ${spread(differences)} ms`,
  );
  console.log(
    `real account - nobody's, median of paired differences (min / median / max of ${rounds} rounds): ${spread(pairedDifferences)} ms`,
  );
} finally {
  await server.stop();
  data.remove();
}
