// What the per-stream queue in handleCommand costs and buys, for one or more builds alternated in one run:
// - uncontended: CPU per command, 16 in flight on 4,096 streams (no two on one stream at once, mostly);
// - contended: 50 commands at once on one stream: how many are appended, how many refused, how long.
// The store is the embedded SQLite one in a temp directory (synchronous = FULL).
//   node bench/commands/one-stream.mjs [--dist dist,/other/build/dist] [--rounds 5]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

const { values } = parseArgs({
  options: { dist: { type: 'string', default: 'dist' }, rounds: { type: 'string', default: '5' } },
});
const builds = values.dist.split(',').map((dist) => resolve(dist));
const rounds = Number(values.rounds);

async function measure(dist) {
  const { SqliteEventStore } = await import(join(dist, 'libs/event-store/src/index.js'));
  const { handleCommand, eventMetadata, newCommandContext } = await import(join(dist, 'libs/application/src/index.js'));
  const dir = mkdtempSync(join(tmpdir(), 'chorus-one-stream-'));
  const store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
  const metadata = eventMetadata(newCommandContext('cli', { cliCommand: 'bench' }, 'bench'), 'Count');
  const options = { initialState: 0, evolve: (count) => count + 1, metadata };
  const count = (state) => [{ type: 'Counted', data: { state } }];
  try {
    let next = 0;
    const worker = async (commands) => {
      for (let index = 0; index < commands; index += 1)
        await handleCommand(store, `spread-${next++ % 4096}`, count, options);
    };
    await Promise.all(Array.from({ length: 16 }, () => worker(200)));
    const cpu = process.cpuUsage();
    await Promise.all(Array.from({ length: 16 }, () => worker(1000)));
    const used = process.cpuUsage(cpu);
    const started = performance.now();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, () => handleCommand(store, 'one', count, options)),
    );
    const ms = performance.now() - started;
    return {
      cpuUsPerCommand: (used.user + used.system) / 16_000,
      appended: outcomes.filter((outcome) => outcome.status === 'fulfilled').length,
      refused: outcomes.filter((outcome) => outcome.status === 'rejected').length,
      contendedMs: ms,
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = new Map(builds.map((dist) => [dist, []]));
for (let round = 0; round < rounds; round += 1) {
  const order = round % 2 === 0 ? builds : [...builds].reverse();
  for (const dist of order) results.get(dist).push(await measure(dist));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const [dist, runs] of results) {
  console.log(dist);
  console.log(
    `  uncontended CPU per command: median ${median(runs.map((run) => run.cpuUsPerCommand)).toFixed(1)} us  (${runs.map((run) => run.cpuUsPerCommand.toFixed(1)).join(', ')})`,
  );
  console.log(
    `  50 at once on one stream: appended ${runs.map((run) => run.appended).join(', ')}; refused ${runs.map((run) => run.refused).join(', ')}; ${runs.map((run) => run.contendedMs.toFixed(0)).join(', ')} ms`,
  );
}
