// What the live subscriptions cost a write, of two builds of the store side by side in one process: the API's
// five (four projections, which take every event and mostly count past it, and the invitation reaction, which
// takes MemberAdded only), following commits of 4 appends at a time (half MemberAdded, half another stream's
// event). CPU per append with the five minus without any, in alternating slices, on a file in /dev/shm (the
// syncs cost no CPU worth measuring here; this measures the feed, not the disk).
//   npm run build:server && node bench/event-store/live-feed.mjs --before /tmp/base/dist [--after dist] [--rounds 5]
// [--commits 3000]
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');
const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string' },
    rounds: { type: 'string' },
    commits: { type: 'string' },
  },
});
if (values.before === undefined) throw new Error('--before <dist directory of the build to compare with> is required');
const rounds = Number(values.rounds ?? 5);
const commits = Number(values.commits ?? 3000);
const PER_COMMIT = 4;
const builds = [];
for (const [label, dist] of [
  ['before', values.before],
  ['after', values.after ?? path.join(root, 'dist')],
]) {
  const built = path.resolve(dist, 'libs/event-store/src/index.js');
  if (!existsSync(built)) throw new Error(`${built} is missing: build it first`);
  builds.push({ label, store: (await import(built)).SqliteEventStore });
}
const directory = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'chorus-bench-live-feed-'));

function events(index) {
  const metadata = {
    actor: 'user:bench',
    correlationId: randomUUID(),
    causationId: randomUUID(),
    sourceIp: '127.0.0.1',
  };
  return index % 2 === 0
    ? [
        `organization-${index % 64}`,
        [
          {
            id: randomUUID(),
            type: 'MemberAdded',
            data: { userId: randomUUID(), email: `m${index}@example.com`, role: 'editor' },
            metadata,
          },
        ],
      ]
    : [
        `invitation-${index}`,
        [
          {
            id: randomUUID(),
            type: 'InvitationRecorded',
            data: { userId: randomUUID(), token: randomUUID() },
            metadata,
          },
        ],
      ];
}

/** CPU (us) per append of `commits` commits of PER_COMMIT appends each, with the API's five subscriptions or none. */
async function slice(SqliteEventStore, withSubscriptions, slot) {
  const store = SqliteEventStore.open({ file: path.join(directory, `${slot}.sqlite`) });
  // What each subscription must reach before the next commit: the last position, or for the reaction the last
  // MemberAdded.
  const targets = new Array(5).fill(0n);
  const seen = new Array(5).fill(0n);
  let waiting;
  const reached = (which, position) => {
    seen[which] = position;
    if (waiting !== undefined && seen.every((at, other) => at >= targets[other])) {
      const resolve = waiting;
      waiting = undefined;
      resolve();
    }
  };
  const subscriptions = [];
  if (withSubscriptions) {
    for (let which = 0; which < 4; which += 1) {
      const pending = [];
      // As the projection runner: keeps the event (its position, type), returns nothing.
      subscriptions.push(
        store.subscribeToAll({
          onEvent: (event) => {
            pending.push(event);
            if (pending.length > 64) pending.length = 0;
            if (event.type === 'MemberAdded' && which === 0) void event.data;
            reached(which, event.position);
          },
        }),
      );
    }
    // As the invitation reaction: MemberAdded of organizations only, an async handler.
    subscriptions.push(
      store.subscribeToAll({
        filter: { streamPrefixes: ['organization-'], eventTypes: ['MemberAdded'] },
        onEvent: async (event) => {
          void event.data;
          reached(4, event.position);
        },
      }),
    );
  }
  let index = 0;
  const started = process.cpuUsage();
  for (let commit = 0; commit < commits; commit += 1) {
    const appends = [];
    for (let append = 0; append < PER_COMMIT; append += 1) {
      const [stream, batch] = events(index++);
      appends.push(store.append(stream, batch, 'any'));
    }
    const results = await Promise.all(appends);
    for (const [at, result] of results.entries()) {
      targets.fill(result.position, 0, 4);
      if ((index - PER_COMMIT + at) % 2 === 0) targets[4] = result.position;
    }
    if (withSubscriptions && !seen.every((at, other) => at >= targets[other]))
      await new Promise((resolve) => (waiting = resolve));
  }
  const used = process.cpuUsage(started);
  await Promise.all(subscriptions.map((subscription) => subscription.close()));
  await store.close();
  rmSync(path.join(directory, `${slot}.sqlite`), { force: true });
  return (used.user + used.system) / (commits * PER_COMMIT);
}

const results = Object.fromEntries(builds.map(({ label }) => [label, []]));
let slot = 0;
for (let round = 1; round <= rounds; round += 1) {
  const order = round % 2 === 1 ? builds : [...builds].reverse();
  const line = [];
  for (const { label, store } of order) {
    const bare = await slice(store, false, slot++);
    const fed = await slice(store, true, slot++);
    results[label].push(fed - bare);
    line.push(`${label} ${bare.toFixed(1)} -> ${fed.toFixed(1)} us/append (feed ${(fed - bare).toFixed(1)})`);
  }
  console.log(`round ${round}: ${line.join('; ')}`);
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const ratios = results.before.map((before, index) => results.after[index] / before);
console.log(
  `the five subscriptions' CPU per append, medians: before ${median(results.before).toFixed(1)} us, after ${median(results.after).toFixed(1)} us; after/before by round ${ratios.map((ratio) => ratio.toFixed(3)).join(' ')}`,
);
rmSync(directory, { recursive: true, force: true });
