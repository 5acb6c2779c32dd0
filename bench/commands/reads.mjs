// What the console's reads of one organization cost against how many members it has, in one run (build first: npm
// run build:server). An organization of 100 members is the baseline, one of 100,000 (BENCH_MEMBERS) is measured:
// the overview (the organization without its member list), one page of 50 members, and History's usage over time,
// each with its answer turned into JSON as the server sends it. Targets at 100,000 members: overview and a page p50
// < 50 ms, usage over time p50 < 300 ms. `--dist A,B` measures several builds, alternated, each in its own process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { measureBuildsAlternated } from '../support/builds-alternated.mjs';
import { seedOrganizationOfMembers } from '../support/organization-of-members.mjs';

const SMALL = 100;
const LARGE = Number(process.env.BENCH_MEMBERS ?? 100_000);
const READS = Number(process.env.BENCH_READS ?? 30);
const TARGETS = { overview: 50, page: 50, usage: 300 };

const p50 = (samples) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];

async function measureBuild(dist) {
  const root = pathToFileURL(`${path.resolve(dist)}/`);
  const domain = await import(new URL('libs/domain/src/index.js', root));
  const { openEventStore } = await import(new URL('libs/event-store/src/index.js', root));
  const readModelsModule = await import(new URL('libs/read-models/src/index.js', root));
  const { ReadModels } = readModelsModule;
  const { organizationUsageSeries } = await import(new URL('apps/api/src/audit/usage-series.js', root));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-reads-'));
  const store = await openEventStore({ dataDir });
  const catalogue = domain.createPlanCatalogue();
  const readModels = ReadModels.open({ dataDir, store, catalogue });
  try {
    await seedOrganizationOfMembers(store, domain.organizationStream, 'small', SMALL);
    await seedOrganizationOfMembers(store, domain.organizationStream, 'large', LARGE);
    await readModels.rebuild();
    // Builds before the usage rows folded the organization's stream from the store at every read.
    const fromRows = 'USAGE_ROWS_FROM_REVISION' in readModelsModule;
    const reads = {
      overview: (id) => readModels.organizations.getOrganizationOutline(id),
      page: (id) => readModels.organizations.membersPage(id, { limit: 50 }),
      usage: (id) =>
        fromRows
          ? organizationUsageSeries(store, readModels.organizations, catalogue, id)
          : organizationUsageSeries(store, catalogue, id),
    };
    const samples = {};
    for (const [name, read] of Object.entries(reads)) {
      samples[name] = { small: [], large: [] };
      for (let round = 0; round < READS; round += 1) {
        for (const id of round % 2 === 0 ? ['small', 'large'] : ['large', 'small']) {
          const started = performance.now();
          const answer = await read(id);
          JSON.stringify(answer, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
          samples[name][id].push(performance.now() - started);
        }
      }
    }
    return Object.fromEntries(
      Object.entries(samples).map(([name, { small, large }]) => [name, { small: p50(small), large: p50(large) }]),
    );
  } finally {
    await readModels.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await measureBuildsAlternated(import.meta.url, {
  measure: measureBuild,
  header: `reads of an organization of ${SMALL} members against one of ${LARGE}, p50 of ${READS} each`,
  describe: (figures) =>
    Object.entries(figures)
      .map(
        ([name, { small, large }]) =>
          `${name} ${small.toFixed(1)} / ${large.toFixed(1)} ms (target < ${TARGETS[name]}: ${large < TARGETS[name] ? 'met' : 'NOT met'})`,
      )
      .join('; '),
});
