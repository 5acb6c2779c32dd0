// Rebuild of the read models from a large event log, beside a raw scan-and-parse of the same events.
//   npm run build:server && node bench/projections/run.mjs [--events 1000000] [--organizations N]
// Events go straight into a temp embedded store (its own schema, big transactions); the rebuild is
// `chorus projections:rebuild`'s code path; the baseline reads and JSON-parses every row, nothing else.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { createPlanCatalogue } from '../../dist/libs/domain/src/index.js';
import { openEventStore } from '../../dist/libs/event-store/src/index.js';
import { ReadModels } from '../../dist/libs/read-models/src/index.js';
import { generateEventLog } from '../support/event-log.mjs';

const { values } = parseArgs({
  options: { events: { type: 'string' }, organizations: { type: 'string' }, rounds: { type: 'string' } },
});
const eventCount = Number(values.events ?? 1_000_000);
const organizationCount = Number(values.organizations ?? Math.max(1, Math.round(eventCount / 10)));
/**
 * Each measure is taken this many times, interleaved; each round's ratios are printed, and the fastest of each measure
 * kept.
 */
const rounds = Number(values.rounds ?? 3);

const scanColumns = 'position, stream_id, revision, event_id, type, data, metadata, recorded_at';

/**
 * What any reader of the log must do at least: read every row, page by page, and parse its data and
 * metadata. Rows come as arrays, as the store's own reads do (the cheapest decoding better-sqlite3
 * offers), in pages of 1,000 like the rebuild's.
 */
function rawScanAndParse(dataDir) {
  const db = new Database(path.join(dataDir, 'events.sqlite'), { readonly: true });
  const page = db
    .prepare(`SELECT ${scanColumns} FROM events WHERE position > ? ORDER BY position LIMIT 1000`)
    .safeIntegers(true)
    .raw(true);
  let count = 0;
  for (let after = 0n, rows = page.all(after); rows.length > 0; rows = page.all(after)) {
    for (const row of rows) {
      JSON.parse(row[5]);
      JSON.parse(row[6]);
      after = row[0];
      count += 1;
    }
  }
  db.close();
  return count;
}

/** The same scan with a row object per row, pages of 5,000: this bench's baseline until the store read raw rows. */
function objectRowScanAndParse(dataDir) {
  const db = new Database(path.join(dataDir, 'events.sqlite'), { readonly: true });
  const page = db
    .prepare(`SELECT ${scanColumns} FROM events WHERE position > ? ORDER BY position LIMIT 5000`)
    .safeIntegers(true);
  let count = 0;
  for (let after = 0n, rows = page.all(after); rows.length > 0; rows = page.all(after)) {
    for (const row of rows) {
      JSON.parse(row.data);
      JSON.parse(row.metadata);
      after = row.position;
      count += 1;
    }
  }
  db.close();
  return count;
}

/** Wall-clock and CPU seconds of `work` (CPU time is steadier than wall time on a busy machine). */
async function measure(work) {
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const cpu = process.cpuUsage(cpuBefore);
  return { result, wall: (performance.now() - started) / 1000, cpu: (cpu.user + cpu.system) / 1e6 };
}

function fastest(measures) {
  return {
    wall: Math.min(...measures.map((m) => m.wall)),
    cpu: Math.min(...measures.map((m) => m.cpu)),
    result: measures[0].result,
  };
}

const format = (value) => value.toLocaleString('en-US');
const rate = (count, seconds) => `${format(Math.round(count / seconds))} events/s`;

const dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-bench-projections-'));
try {
  const generated = await measure(() => generateEventLog(dataDir, eventCount, organizationCount));
  console.log(
    `generated ${format(eventCount)} events across ${format(organizationCount)} organizations in ${generated.wall.toFixed(1)} s`,
  );

  const store = await openEventStore({ dataDir });
  const readModels = ReadModels.open({ dataDir, store, catalogue: createPlanCatalogue() });
  rawScanAndParse(dataDir); // warms the page cache for every run alike
  const runs = { raw: [], objectRows: [], organizations: [], all: [] };
  for (let round = 0; round < rounds; round += 1) {
    runs.raw.push(await measure(() => rawScanAndParse(dataDir)));
    runs.objectRows.push(await measure(() => objectRowScanAndParse(dataDir)));
    // The organization read model alone (the card's model), then every read model (what the command does).
    runs.organizations.push(await measure(() => readModels.rebuild({ only: ['organizations'] })));
    runs.all.push(await measure(() => readModels.rebuild()));
    const ratio = (key) => (runs.raw[round].wall / runs[key][round].wall).toFixed(3);
    // Adjacent measures of one round, so that their ratio sees the same machine (bench/http reads these lines).
    console.log(
      `round ${round + 1}: organizations rebuild ${ratio('organizations')}x raw, all read models ${ratio('all')}x raw (wall)`,
    );
  }
  const raw = fastest(runs.raw);
  const objectRows = fastest(runs.objectRows);
  const scanned = (label, scan) =>
    `${label}: ${format(scan.result)} events in ${scan.wall.toFixed(2)} s = ${rate(scan.result, scan.wall)} (cpu ${scan.cpu.toFixed(2)} s)`;
  console.log(scanned('raw scan-and-parse', raw));
  console.log(scanned('raw scan-and-parse with object rows (the earlier baseline)', objectRows));
  for (const key of ['organizations', 'all']) {
    const rebuild = fastest(runs[key]);
    const events = rebuild.result.events;
    console.log(
      `rebuild of ${rebuild.result.projections.join(' + ')}: ${format(events)} events in ${rebuild.wall.toFixed(2)} s = ${rate(events, rebuild.wall)} (cpu ${rebuild.cpu.toFixed(2)} s); ` +
        `ratio to raw ${(raw.wall / rebuild.wall).toFixed(2)}x wall, ${(raw.cpu / rebuild.cpu).toFixed(2)}x cpu (target >= 0.5x); ` +
        `to the earlier baseline ${(objectRows.wall / rebuild.wall).toFixed(2)}x wall, ${(objectRows.cpu / rebuild.cpu).toFixed(2)}x cpu`,
    );
  }

  const verified = await measure(() => readModels.verify());
  const drift = verified.result.some((verification) => verification.drift.length > 0);
  console.log(
    `verify (in-memory rebuild and row-by-row compare): ${verified.wall.toFixed(2)} s, ${drift ? 'DRIFT' : 'no drift'}`,
  );
  await readModels.close();
  await store.close();
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
