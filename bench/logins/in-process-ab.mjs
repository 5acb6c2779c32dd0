// CPU per sign-in of two builds' identity and event store in ONE process (no HTTP, no read models), rounds
// alternating A B, B A, ...: the sign-in's own code and the store work it asks for, with argon2id stubbed
// (a setImmediate) so that only the main thread's work is counted. Each build has its own store on tmpfs
// (/dev/shm: the disk's syncs are not what this measures) and 16 users, each signing in from an address of
// their own, CONCURRENCY at once. process.cpuUsage, not wall time; an A/A run shows the spread.
//   node bench/logins/in-process-ab.mjs BEFORE_DIST AFTER_DIST [SIGN_INS_PER_ROUND=1000] [ROUNDS=30] [CONCURRENCY=4]
//     env: READ_MODELS=inline: each build also runs its read models' projector (as the server does), and a round
//          ends when they have applied its sign-ins, so their live commits are in the CPU counted
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';

const dists = process.argv.slice(2, 4).map((dist) => path.resolve(dist));
if (dists.length !== 2) throw new Error('usage: in-process-ab.mjs BEFORE_DIST AFTER_DIST [SIGN_INS_PER_ROUND] [ROUNDS] [CONCURRENCY]');
const perRound = Number(process.argv[4] ?? 1000);
const rounds = Number(process.argv[5] ?? 30);
const concurrency = Number(process.argv[6] ?? 4);
const password = 'correct horse battery staple';
const users = 16;

async function signInsOf(dist) {
  const { openEventStore } = await import(`${dist}/libs/event-store/src/index.js`);
  const { createIdentity } = await import(`${dist}/libs/identity/src/index.js`);
  const dataDir = mkdtempSync('/dev/shm/chorus-in-process-ab-');
  const store = await openEventStore({ dataDir });
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const identity = createIdentity({ eventStore: store, sessionSecret: 'a bench secret of at least thirty-two characters', mailer: { send: async () => undefined }, logger: quiet, publicUrl: 'http://localhost', productName: 'Chorus' });
  identity.hasher.verify = () => new Promise((resolve) => setImmediate(() => resolve(true)));
  let readModels;
  if (process.env.READ_MODELS === 'inline') {
    const { ReadModels } = await import(`${dist}/libs/read-models/src/index.js`);
    const { createPlanCatalogue } = await import(`${dist}/libs/domain/src/index.js`);
    readModels = ReadModels.open({ dataDir, store, catalogue: createPlanCatalogue() });
    readModels.start();
  }
  const cli = { actor: 'cli', correlationId: 'bench', causationId: 'bench', origin: { cliCommand: 'bench' } };
  for (let user = 0; user < users; user += 1) await identity.registration.register({ email: `user-${user}@example.test`, username: `user-${user}`, password }, cli);
  let next = 0;
  const signIn = () => {
    next += 1;
    const user = next % users;
    const context = { actor: 'anonymous', correlationId: `c${next}`, causationId: `c${next}`, origin: { clientIp: `192.0.2.${user + 1}`, userAgent: 'bench' } };
    return identity.passwordSignIn.signIn({ username: `user-${user}@example.test`, password }, context);
  };
  const run = async (count) => {
    let left = count;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await signIn();
    }));
    if (readModels !== undefined && !(await readModels.waitForPosition(await store.headPosition(), 10_000))) throw new Error('the read models did not catch up');
  };
  const close = async () => {
    await readModels?.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { run, close };
}

const builds = [await signInsOf(dists[0]), await signInsOf(dists[1])];
try {
  for (const build of builds) await build.run(1000);
  const cpu = [[], []];
  for (let round = 0; round < rounds; round += 1) {
    for (const index of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const before = process.cpuUsage();
      await builds[index].run(perRound);
      const used = process.cpuUsage(before);
      cpu[index].push((used.user + used.system) / perRound);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const ratios = cpu[0].map((value, index) => cpu[1][index] / value);
  const load = (await import('node:os')).loadavg()[0].toFixed(1);
  console.log(`CPU per sign-in, median of ${rounds} rounds of ${perRound}: before ${median(cpu[0]).toFixed(1)} us, after ${median(cpu[1]).toFixed(1)} us`);
  console.log(`after / before per round: median ${median(ratios).toFixed(3)}, ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)} (load ${load})`);
} finally {
  for (const build of builds) await build.close();
}
