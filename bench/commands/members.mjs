// What a command costs against how many members the organization has, in one run (build first: npm run
// build:server). An organization of 100 members is the baseline; the target is add-member (with its removal, so the
// count stays) in an organization of 100,000 within 1.2 times the baseline, p50. `--dist A,B` measures several builds
// in one run, alternated, each in its own process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { measureBuildsAlternated } from '../support/builds-alternated.mjs';
import { seedOrganizationOfMembers } from '../support/organization-of-members.mjs';

const SMALL = 100;
const LARGE = Number(process.env.BENCH_MEMBERS ?? 100_000);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 300);
const TARGET = 1.2;

const context = { actor: 'cli', correlationId: 'bench', causationId: 'bench', origin: { cliCommand: 'bench' } };
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const p50 = (samples) =>
  percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );

/** One build's figures, measured in this process: the small and the large organization in alternation. */
async function measureBuild(dist) {
  const root = pathToFileURL(`${path.resolve(dist)}/`);
  const { createPlanCatalogue, organizationStream } = await import(new URL('libs/domain/src/index.js', root));
  const { openEventStore } = await import(new URL('libs/event-store/src/index.js', root));
  const { Organizations, OrganizationStateCache } = await import(new URL('apps/api/src/index.js', root));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-members-'));
  const store = await openEventStore({ dataDir });
  try {
    await seedOrganizationOfMembers(store, organizationStream, 'small', SMALL);
    await seedOrganizationOfMembers(store, organizationStream, 'large', LARGE);
    const organizations = new Organizations(store, new OrganizationStateCache(), createPlanCatalogue());
    const cold = {};
    for (const id of ['small', 'large']) {
      const started = performance.now();
      await organizations.handle(id, { type: 'ConfigureLimits', data: { contentSections: 5 } }, context);
      cold[id] = performance.now() - started;
    }
    const samples = { small: [], large: [] };
    for (let pair = 0; pair < PAIRS; pair += 1) {
      for (const id of pair % 2 === 0 ? ['small', 'large'] : ['large', 'small']) {
        const userId = `bench-${pair}`;
        const started = performance.now();
        await organizations.handle(
          id,
          { type: 'AddMember', data: { userId, email: `${userId}@example.com`, role: 'member' } },
          context,
        );
        await organizations.handle(id, { type: 'RemoveMember', data: { userId } }, context);
        samples[id].push(performance.now() - started);
      }
    }
    return { cold, small: p50(samples.small), large: p50(samples.large) };
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await measureBuildsAlternated(import.meta.url, {
  measure: measureBuild,
  header:
    `add-member + remove-member (Organizations.handle: load, fold, decide, append; SQLite, each commit synced), ` +
    `${PAIRS} pairs, an organization of ${SMALL} members against one of ${LARGE}, alternated`,
  describe: ({ cold, small, large }) => {
    const ratio = large / small;
    return (
      `first command (cache cold) ${cold.small.toFixed(1)} / ${cold.large.toFixed(1)} ms; ` +
      `pair p50 ${small.toFixed(2)} / ${large.toFixed(2)} ms; ratio ${ratio.toFixed(2)} ` +
      `(target <= ${TARGET}: ${ratio <= TARGET ? 'met' : 'NOT met'})`
    );
  },
});
