// Folds the event log into projections' tables in large steps: the rebuild and the verification
// read every event once for all projections, and write each aggregate once per memory budget, not
// once per event.
import type { EnvelopePart, EventStore, LogEvent } from '#event-store';
import type { Projection, ProjectionWriter, TableNames } from '../projection.js';
import type { ReadModelDatabase } from '../read-model-database.js';

export type ReplayProgress = {
  /** Events read so far. */
  events: number;
  position: bigint | undefined;
  /** Where the replay stops (the store's head, or the checkpoint being verified). */
  target: bigint | undefined;
  /**
   * How far the replay is, from 0 to 1. Not `position / target`: a pass stream by stream has no position
   * until it ends, and is counted as at most `target` events (every event up to it might be one of its
   * streams'), before the pass over the log in position order when there is one.
   */
  fraction: number;
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
  /**
   * Aggregates a writer keeps in memory before it writes them all and forgets them, in the pass over the
   * log in position order (a pass stream by stream writes each stream when it is finished).
   */
  memoryBudget?: number;
  /** Aggregates per write transaction in the pass over the log, so that a live projector sharing the file never waits long. */
  writeChunk?: number;
};

export type ReplayResult = { position: bigint | undefined; events: number };

/**
 * Streams a pass stream by stream writes per transaction (about two pages of the organization model),
 * so that a live projector sharing the file waits for one of them at most as long as before.
 */
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
  // From the first event, the models kept per stream are folded stream after stream (when the store can
  // read so): a stream's states then die young, where in position order each lives until its stream's
  // next event, far down an interleaved log, and costs the collector a copy and a promotion.
  // The others read the log in position order.
  const byStream =
    options.fromPosition === undefined && store.readLogByStream !== undefined
      ? replaying.filter(({ projection }) => projection.streamPrefix !== undefined)
      : [];
  const byLog = replaying.filter((target) => !byStream.includes(target));
  const target = options.toPosition ?? (await store.headPosition());
  const started = performance.now();
  let position = options.fromPosition;
  let events = 0;
  // The work, in events: the pass stream by stream (at most the whole log), then the pass over the log.
  const byStreamWork = target !== undefined && byStream.length > 0 ? Number(target) : 0;
  const byLogWork = target !== undefined && byLog.length > 0 ? Math.max(0, Number(target - (options.fromPosition ?? 0n))) : 0;
  let byStreamDone = 0;
  const fraction = (): number => {
    const total = byStreamWork + byLogWork;
    if (total === 0) return 1;
    const logDone = position === undefined || byLogWork === 0 ? 0 : Math.max(0, Number(position - (options.fromPosition ?? 0n)));
    return Math.min(1, (Math.min(byStreamDone, byStreamWork) + Math.min(logDone, byLogWork)) / total);
  };
  const report = (): void => options.onProgress?.({ events, position, target, fraction: fraction(), elapsedMs: performance.now() - started });

  try {
    if (target !== undefined && byStream.length > 0) {
      events = await replayByStream(options, byStream, target, pageSize, (read) => {
        events = read;
        byStreamDone = read;
        report();
      });
      byStreamDone = byStreamWork;
      // Every event up to the target of every stream they fold is in: they are at the target.
      if (byLog.length === 0) position = target;
    }
    if (byLog.length > 0) {
      const parts = partsOf(byLog);
      // The events replayed: the log pass reads the streams folded before again (as the events it counts).
      const folded = events;
      let read = 0;
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
          for (const { projection, writer, until } of byLog) {
            if ((until === undefined || event.position <= until) && projection.handles(event)) writer.apply(event);
          }
          position = event.position;
          read += 1;
        }
        if (position !== undefined && position >= target) more = false;
        events = Math.max(folded, read);
        writeAll(db, byLog.filter(({ writer }) => writer.remembered >= memoryBudget), writeChunk);
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
 * Folds the per-stream models' streams one after another, each prefix read once for the models that
 * share it; returns the events read. A stream's last state is final once the next stream begins: the
 * writers write it then and forget it, so that nothing finished is held (a stream a page cuts in two is
 * written at the page's end and read back from the table by its writer, as after any flush).
 *
 * Holding finished streams until a write of 200 of them (the sixth round) made the rebuild bimodal: V8
 * tracks how many of an object literal's objects survive a young-generation GC, and when one falls
 * before the first write, nearly all the states, members and rows made since the last are alive, so
 * V8 allocates all later ones in the old generation, where each kept its young parts alive until a
 * full GC. With one stream held, almost none of them survive.
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
    // No further than the last position any of them applies.
    const toPosition = sharing.every(({ until }) => until !== undefined)
      ? sharing.reduce((top, { until }) => (until !== undefined && until > top ? until : top), -1n)
      : target;
    const end = toPosition < target ? toPosition : target;
    // Streams written since the last commit.
    let written = 0;
    const writeHeld = (): void => {
      for (const { writer } of sharing) {
        writer.flush();
        writer.forget();
      }
      written += 1;
    };
    // Written when finished: at most one stream is held, the one the page ends in.
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
    // A transaction stays open across the pages' reads (this connection is the replay's, as in the
    // swap) and commits after streamsPerTransaction streams: a transaction per page cost more commits.
    // Called inside a transaction (the swap's catch-up when nothing was built before it), the writes are
    // the caller's, committed or rolled back with the rest of it.
    const own = !db.inTransaction;
    let open = false;
    try {
      let after: { streamId: string; revision: bigint } | undefined;
      for (let more = true; more; ) {
        const page = await readLogByStream({ streamPrefix, toPosition: end, maxCount: pageSize, parts, ...(after === undefined ? {} : { after }) });
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

/** Only the envelope parts some projection reads: the organization model alone reads none of them. */
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
