// Each event is read once for all projections, and each aggregate written once per memory budget, not per event.
import type { EnvelopePart, EventStore, LogEvent } from '#event-store';
import type { Projection, ProjectionWriter, TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';

export type ReplayProgress = {
  events: number;
  position: bigint | undefined;
  target: bigint | undefined;
  /** Not `position / target`: a pass stream by stream has no position until it ends. */
  fraction: number;
  elapsedMs: number;
};

export type ReplayTarget = {
  projection: Projection;
  tables: TableNames;
  /** Inclusive: verify stops at the projection's checkpoint. */
  until?: bigint;
  startsEmpty?: boolean;
};

export type ReplayOptions = {
  db: ReadModelDatabase;
  store: EventStore;
  targets: readonly ReplayTarget[];
  /** Exclusive. */
  fromPosition?: bigint | undefined;
  /** Inclusive. */
  toPosition?: bigint | undefined;
  onProgress?: (progress: ReplayProgress) => void;
  /** Every young-generation GC during a fold copies the page: 1,000 folds faster than 5,000 (bench/projections). */
  pageSize?: number;
  /** Aggregates a writer keeps before it writes them all and forgets them. */
  memoryBudget?: number;
  /** So that a live projector sharing the file never waits long. */
  writeChunk?: number;
};

export type ReplayResult = { position: bigint | undefined; events: number };

/** About two pages of the organization model: a live projector sharing the file waits no longer than before. */
const streamsPerTransaction = 200;

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
  // Stream after stream, a stream's states die young; in position order each lives until its stream's next event.
  const byStream =
    options.fromPosition === undefined && store.readLogByStream !== undefined
      ? replaying.filter(({ projection }) => projection.streamPrefix !== undefined)
      : [];
  const byLog = replaying.filter((target) => !byStream.includes(target));
  const target = options.toPosition ?? (await store.headPosition());
  const started = performance.now();
  let position = options.fromPosition;
  let events = 0;
  const byStreamWork = target !== undefined && byStream.length > 0 ? Number(target) : 0;
  const byLogWork =
    target !== undefined && byLog.length > 0 ? Math.max(0, Number(target - (options.fromPosition ?? 0n))) : 0;
  let byStreamDone = 0;
  const fraction = (): number => {
    const total = byStreamWork + byLogWork;
    if (total === 0) return 1;
    const logDone =
      position === undefined || byLogWork === 0 ? 0 : Math.max(0, Number(position - (options.fromPosition ?? 0n)));
    return Math.min(1, (Math.min(byStreamDone, byStreamWork) + Math.min(logDone, byLogWork)) / total);
  };
  const report = (): void =>
    options.onProgress?.({ events, position, target, fraction: fraction(), elapsedMs: performance.now() - started });

  try {
    if (target !== undefined && byStream.length > 0) {
      events = await replayByStream(options, byStream, target, pageSize, (read) => {
        events = read;
        byStreamDone = read;
        report();
      });
      byStreamDone = byStreamWork;
      if (byLog.length === 0) position = target;
    }
    if (byLog.length > 0) {
      const parts = partsOf(byLog);
      const folded = events;
      let read = 0;
      let more = target !== undefined && (position === undefined || position < target);
      while (more && target !== undefined) {
        const page = await store.readLog({
          ...(position === undefined ? {} : { fromPosition: position }),
          maxCount: pageSize,
          parts,
        });
        more = page.length === pageSize;
        for (const event of page) {
          if (event.position > target) {
            more = false;
            break;
          }
          for (const { projection, writer, until } of byLog) {
            if ((until === undefined || event.position <= until) && projection.handles(event)) writer.apply(event);
          }
          position = event.position;
          read += 1;
        }
        if (position !== undefined && position >= target) more = false;
        events = Math.max(folded, read);
        writeAll(
          db,
          byLog.filter(({ writer }) => writer.remembered >= memoryBudget),
          writeChunk,
        );
        report();
      }
      writeAll(db, byLog, writeChunk);
    }
  } catch (error) {
    for (const { writer } of replaying) writer.discard();
    throw error;
  }
  report();
  return { position, events };
}

/**
 * A stream is written and forgotten as soon as the next begins: holding 200 finished streams made V8 pretenure
 * every later state after a young GC found them alive, and the rebuild went bimodal.
 */
async function replayByStream(
  options: ReplayOptions,
  replaying: readonly Replaying[],
  target: bigint,
  pageSize: number,
  progress: (events: number) => void,
): Promise<number> {
  const { db, store } = options;
  const readLogByStream = store.readLogByStream?.bind(store);
  if (readLogByStream === undefined) throw new Error('The store cannot read its log stream by stream');
  const prefixes = new Map<string, Replaying[]>();
  for (const target of replaying) {
    const prefix = target.projection.streamPrefix as string;
    prefixes.set(prefix, [...(prefixes.get(prefix) ?? []), target]);
  }
  let events = 0;
  for (const [streamPrefix, sharing] of prefixes) {
    const parts = partsOf(sharing);
    const toPosition = sharing.every(({ until }) => until !== undefined)
      ? sharing.reduce((top, { until }) => (until !== undefined && until > top ? until : top), -1n)
      : target;
    const end = toPosition < target ? toPosition : target;
    let written = 0;
    const writeHeld = (): void => {
      for (const { writer } of sharing) {
        writer.flush();
        writer.forget();
      }
      written += 1;
    };
    const foldPage = (page: readonly LogEvent<EnvelopePart>[]): void => {
      let streamId: string | undefined;
      for (const event of page) {
        if (event.streamId !== streamId) {
          if (streamId !== undefined) writeHeld();
          streamId = event.streamId;
        }
        for (const { projection, writer, until } of sharing) {
          if ((until === undefined || event.position <= until) && projection.handles(event)) writer.apply(event);
        }
      }
      if (streamId !== undefined) writeHeld();
    };
    // Kept open across the pages' reads: a transaction per page cost more commits. Inside a caller's transaction, the
    // writes are the caller's.
    const own = !db.inTransaction;
    let open = false;
    try {
      let after: { streamId: string; revision: bigint } | undefined;
      for (let more = true; more;) {
        const page = await readLogByStream({
          streamPrefix,
          toPosition: end,
          maxCount: pageSize,
          parts,
          ...(after === undefined ? {} : { after }),
        });
        more = page.length === pageSize;
        if (own && !open) {
          db.exec('BEGIN IMMEDIATE');
          open = true;
        }
        foldPage(page);
        if (open && (!more || written >= streamsPerTransaction)) {
          db.exec('COMMIT');
          open = false;
          written = 0;
        }
        events += page.length;
        const last = page.at(-1);
        if (last !== undefined) after = { streamId: last.streamId, revision: last.revision };
        progress(events);
      }
    } catch (error) {
      if (open && db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
  return events;
}

/** The organization model alone reads none of them. */
function partsOf(replaying: readonly Replaying[]): EnvelopePart[] {
  return [...new Set<EnvelopePart>(replaying.flatMap(({ projection }) => projection.parts))];
}

function writeAll(db: ReadModelDatabase, replaying: readonly Replaying[], chunk: number): void {
  for (const { writer } of replaying) {
    const writeChunk = db.transaction(() => writer.flush(chunk));
    let done = false;
    while (!done) done = writeChunk.immediate();
    writer.forget();
  }
}
