// Folds the event log into projections' tables in large steps: the rebuild and the verification
// read every event once for all projections, and write each aggregate once per memory budget, not
// once per event.
import type { EnvelopePart, EventStore } from '#event-store';
import type { Projection, ProjectionWriter, TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';

export type ReplayProgress = {
  /** Events read so far. */
  events: number;
  position: bigint | undefined;
  /** Where the replay stops (the store's head, or the checkpoint being verified). */
  target: bigint | undefined;
  elapsedMs: number;
};

export type ReplayTarget = {
  projection: Projection;
  /** Where its writer writes (live or aside tables). */
  tables: TableNames;
  /** Inclusive: later events are not applied to this projection (verify stops at its checkpoint). */
  until?: bigint;
  /** Its tables are empty at the start (see WriterOptions). */
  startsEmpty?: boolean;
};

export type ReplayOptions = {
  db: ReadModelDatabase;
  store: EventStore;
  targets: readonly ReplayTarget[];
  /** Exclusive start (undefined: the first event). */
  fromPosition?: bigint | undefined;
  /** Inclusive end (undefined: everything stored now). */
  toPosition?: bigint | undefined;
  onProgress?: (progress: ReplayProgress) => void;
  /**
   * Events per read from the store. A page stays alive while it is folded, and every young-generation
   * GC in between copies it: 1,000 folds faster than 5,000 (bench/projections).
   */
  pageSize?: number;
  /** Aggregates a writer keeps in memory before it writes them all and forgets them. */
  memoryBudget?: number;
  /** Aggregates per write transaction, so that a live projector sharing the file never waits long. */
  writeChunk?: number;
};

export type ReplayResult = { position: bigint | undefined; events: number };

type Replaying = { projection: Projection; writer: ProjectionWriter; until: bigint | undefined };

export async function replay(options: ReplayOptions): Promise<ReplayResult> {
  const { db, store } = options;
  const pageSize = options.pageSize ?? 1_000;
  const memoryBudget = options.memoryBudget ?? 250_000;
  const writeChunk = options.writeChunk ?? 2_000;
  const replaying: Replaying[] = options.targets.map(({ projection, tables, until, startsEmpty }) => ({
    projection,
    writer: projection.writer(db, tables, { startsEmpty: startsEmpty === true }),
    until,
  }));
  // Only the envelope parts some projection reads: the organization model alone reads none of them.
  const parts = [...new Set<EnvelopePart>(options.targets.flatMap(({ projection }) => projection.parts))];
  const target = options.toPosition ?? (await store.headPosition());
  const started = performance.now();
  let position = options.fromPosition;
  let events = 0;
  const report = (): void => options.onProgress?.({ events, position, target, elapsedMs: performance.now() - started });

  try {
    let more = target !== undefined && (position === undefined || position < target);
    while (more && target !== undefined) {
      // Each projection is given events with at least the parts it names.
      const page = await store.readLog({ ...(position === undefined ? {} : { fromPosition: position }), maxCount: pageSize, parts });
      more = page.length === pageSize;
      for (const event of page) {
        if (event.position > target) {
          more = false;
          break;
        }
        for (const { projection, writer, until } of replaying) {
          if ((until === undefined || event.position <= until) && projection.handles(event)) writer.apply(event);
        }
        position = event.position;
        events += 1;
      }
      if (position !== undefined && position >= target) more = false;
      writeAll(db, replaying.filter(({ writer }) => writer.remembered >= memoryBudget), writeChunk);
      report();
    }
    writeAll(db, replaying, writeChunk);
  } catch (error) {
    for (const { writer } of replaying) writer.discard();
    throw error;
  }
  report();
  return { position, events };
}

function writeAll(db: ReadModelDatabase, replaying: readonly Replaying[], chunk: number): void {
  for (const { writer } of replaying) {
    const writeChunk = db.transaction(() => writer.flush(chunk));
    let done = false;
    while (!done) done = writeChunk.immediate();
    writer.forget();
  }
}
