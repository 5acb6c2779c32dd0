// Command latency against a short and a long organization stream, in one run (build first: npm run build:server).
// The short stream (10 events) is the baseline; the target is p50 and p95 of the long stream (10,000 events)
// within 1.2 times the baseline's, which the state cache makes possible: a load reads only the events
// recorded after the cached revision. The same measurement without the cache shows what it saves.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createPlanCatalogue, organizationStream } from '../../dist/libs/domain/src/index.js';
import { openEventStore } from '../../dist/libs/event-store/src/index.js';
import { Organizations, OrganizationStateCache } from '../../dist/apps/api/src/index.js';

const SHORT = 10;
const LONG = 10_000;
const PAIRS = Number(process.env.BENCH_PAIRS ?? 300);
// Without the cache every command reads the whole stream: fewer pairs are enough to show it.
const UNCACHED_PAIRS = Math.min(PAIRS, 50);
const TARGET = 1.2;

const context = { actor: 'cli', correlationId: 'bench', causationId: 'bench', origin: { cliCommand: 'bench' } };
const metadata = { actor: 'cli', correlationId: 'bench-seed', causationId: 'bench-seed' };

/**
 * OrganizationCreated, PlanAssigned, then member added/removed pairs up to `length` events; with `directory`, the
 * members stay, as a directory provisions them (length - 2 members).
 */
async function seed(store, id, length, { directory = false } = {}) {
  const events = [
    { type: 'OrganizationCreated', data: { id, name: id } },
    { type: 'PlanAssigned', data: { line: 'classic', plan: 'enterprise' } },
  ];
  for (let index = 0; events.length < length; index += 1) {
    const userId = `filler-${index}`;
    events.push({
      type: 'MemberAdded',
      data: { userId, email: `${userId}@example.com`, role: 'member', chorusUser: false },
    });
    if (!directory && events.length < length) events.push({ type: 'MemberRemoved', data: { userId } });
  }
  let expected = 'no_stream';
  for (let start = 0; start < events.length; start += 500) {
    const batch = events.slice(start, start + 500).map((event) => ({ id: randomUUID(), ...event, metadata }));
    expected = (await store.append(organizationStream(id), batch, expected)).nextExpectedRevision;
  }
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};

/**
 * Adds then removes one member, `pairs` times per organization, alternating between them (and which goes
 * first) so that both see the same machine, the same disk and the same garbage collector.
 */
async function measure(decider, ids, pairs) {
  const samples = Object.fromEntries(ids.map((id) => [id, []]));
  const timed = async (id, command) => {
    const started = performance.now();
    await decider.handle(id, command, context);
    samples[id].push(performance.now() - started);
  };
  for (let pair = 0; pair < pairs; pair += 1) {
    for (const id of pair % 2 === 0 ? ids : [...ids].reverse()) {
      const userId = `bench-${pair}`;
      await timed(id, { type: 'AddMember', data: { userId, email: `${userId}@example.com`, role: 'member' } });
      await timed(id, { type: 'RemoveMember', data: { userId } });
    }
  }
  return ids.map((id) => summary(samples[id]));
}

const format = (ms) => `${ms.toFixed(2)} ms`;

const dataDir = mkdtempSync(join(tmpdir(), 'chorus-bench-commands-'));
const store = await openEventStore({ dataDir });
try {
  const catalogue = createPlanCatalogue();
  console.log(`Command latency of add member / remove member pairs (SQLite, synchronous=FULL).`);
  console.log(`Each pair adds 2 events: the streams grow by 2 x pairs during a phase.\n`);

  await seed(store, 'short-cached', SHORT);
  await seed(store, 'long-cached', LONG);
  const cached = new Organizations(store, new OrganizationStateCache(), catalogue);
  const coldStarted = performance.now();
  await cached.handle('long-cached', { type: 'ConfigureLimits', data: { users: 0 } }, context);
  const coldMs = performance.now() - coldStarted;
  console.log(`first command on the ${LONG}-event stream (cache cold, whole stream read): ${format(coldMs)}`);
  // The same length kept as members: the fold of a directory, which once grew with the square of its members.
  await seed(store, 'directory', LONG, { directory: true });
  const directoryStarted = performance.now();
  await cached.handle('directory', { type: 'ConfigureLimits', data: { contentSections: 5 } }, context);
  const directoryMs = performance.now() - directoryStarted;
  console.log(
    `first command on an organization of ${LONG - 2} members (cache cold): ${format(directoryMs)}, ${(directoryMs / coldMs).toFixed(2)} x the line above`,
  );
  await cached.handle('short-cached', { type: 'ConfigureLimits', data: { users: 0 } }, context);
  const withCache = await measure(cached, ['short-cached', 'long-cached'], PAIRS);

  await seed(store, 'short-uncached', SHORT);
  await seed(store, 'long-uncached', LONG);
  const uncached = new Organizations(store, new OrganizationStateCache(0), catalogue);
  const withoutCache = await measure(uncached, ['short-uncached', 'long-uncached'], UNCACHED_PAIRS);

  const phases = [
    ['with the state cache', withCache, PAIRS],
    ['without the cache (reference)', withoutCache, UNCACHED_PAIRS],
  ];
  for (const [label, [short, long], pairs] of phases) {
    console.log(`\n${label}, ${pairs} pairs per stream`);
    console.log(`  ${SHORT}-event stream:     p50 ${format(short.p50)}  p95 ${format(short.p95)}`);
    console.log(`  ${LONG}-event stream:  p50 ${format(long.p50)}  p95 ${format(long.p95)}`);
    console.log(
      `  ratio long/short:      p50 ${(long.p50 / short.p50).toFixed(2)}  p95 ${(long.p95 / short.p95).toFixed(2)}`,
    );
  }
  const ratio = withCache[1].p50 / withCache[0].p50;
  console.log(
    `\nratio (p50, with the cache): ${ratio.toFixed(2)} (target <= ${TARGET}: ${ratio <= TARGET ? 'met' : 'NOT met'})`,
  );
} finally {
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
