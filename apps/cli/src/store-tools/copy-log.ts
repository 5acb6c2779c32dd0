// The log and its keys copied from one store into another exactly: every event at its own position, id, stream,
// revision, type, time and metadata, and every key and erasure. Into EventStoreDB, which gives positions and times
// itself, the event's metadata keeps those two (docs/operations.md). Keys go first, so every copied event opens; events go
// in batches that each land whole, so a copy stopped at any moment (kill -9) leaves a prefix of the source, and the
// next run goes on after it; keys go again last, for those made and erased while the events were copied.
import type {
  ChainedLog,
  EventRows,
  EventStore,
  ExactLog,
  KeyRecord,
  PersonalKeyStore,
  StoredEvent,
} from '#event-store';
import { StoreRefusal } from './store-refusal.js';
import type { OpenedStore } from './stores.js';

const EVENT_BATCH = 10_000;
/** Events written out as rows by one statement of the source, a turn of the event loop between two. */
const ROWS_AT_ONCE = 1_000;
const KEY_BATCH = 1_000;

/** A copy that would not end in the source's log exactly: refused before anything is written. */
export class CopyRefused extends StoreRefusal {
  constructor(message: string) {
    super(409, 'COPY_REFUSED', 'The copy cannot go on', message);
  }
}

export type CopyLimit = {
  /** The last position copied (a backup's head, or `--to-position`). */
  lastPosition?: bigint;
  /** The last time copied: events recorded after it, and every one after those, stay behind (`--as-of`). */
  asOf?: string;
};

export type CopyResult = {
  /** Events the target held already (a resumed copy). */
  alreadyThere: number;
  copied: number;
  keys: number;
  erasures: number;
  headPosition: bigint | undefined;
};

/** The first difference between two events at one position, in words; undefined when they are the same. */
export function differenceBetween(source: StoredEvent, target: StoredEvent): string | undefined {
  for (const field of ['position', 'streamId', 'revision', 'id', 'type', 'data', 'metadata'] as const)
    if (source[field] !== target[field]) return `its ${field} differs`;
  // The same instant may be written with another precision or offset by another store.
  return Date.parse(source.recordedAt) === Date.parse(target.recordedAt) ? undefined : 'its time differs';
}

/** Past the limit: that event and every one after it stay behind. */
function beyond(event: StoredEvent, limit: CopyLimit): boolean {
  return (
    (limit.lastPosition !== undefined && event.position > limit.lastPosition) ||
    (limit.asOf !== undefined && Date.parse(event.recordedAt) > Date.parse(limit.asOf))
  );
}

/**
 * The source's events after `after` (its own position), up to the limit, in batches (each lands whole in the target),
 * viewed as the source's history holds them (OpenedStore.view), with their hashes where the source keeps a chain: the
 * target keeps them as they are.
 */
async function* batchesOf(source: OpenedStore, after: bigint, limit: CopyLimit): AsyncGenerator<StoredEvent[]> {
  const chain = 'readChain' in source.events ? (source.events as EventStore & ChainedLog) : undefined;
  const read = (position: bigint): Promise<StoredEvent[]> =>
    chain === undefined ? source.copyLog.exportEvents(position, EVENT_BATCH) : chain.readChain(position, EVENT_BATCH);
  for (let last = after; ;) {
    const batch = await read(last);
    const viewed = batch.map((event) => source.view(event));
    const stop = viewed.findIndex((event) => beyond(event, limit));
    const taken = stop === -1 ? viewed : viewed.slice(0, stop);
    if (taken.length === 0) return;
    yield taken;
    if (stop !== -1) return;
    last = (batch.at(-1) as StoredEvent).position;
  }
}

/**
 * The source's events after `after` (up to `lastPosition`) as rows, in batches of about EVENT_BATCH: where the source
 * writes them out itself and the target takes them so. It stops before the first piece that is not chained; the rest
 * is then read as events.
 */
async function* rowBatchesOf(
  source: Pick<Required<ExactLog>, 'exportRows'>,
  after: bigint,
  lastPosition: bigint | undefined,
): AsyncGenerator<EventRows[]> {
  for (let last = after; ;) {
    const batch: EventRows[] = [];
    let count = 0;
    while (count < EVENT_BATCH) {
      // Reading the embedded store is synchronous: the batch before is written out to the target meanwhile.
      if (batch.length > 0) await new Promise((resolve) => setImmediate(resolve));
      const piece = await source.exportRows(last, lastPosition, ROWS_AT_ONCE);
      if (piece === undefined) break;
      batch.push(piece);
      count += piece.count;
      last = piece.lastPosition;
      if (piece.count < ROWS_AT_ONCE) break;
    }
    if (batch.length > 0) yield batch;
    // A short batch: the source had no more rows to give.
    if (count < EVENT_BATCH) return;
  }
}

/** Keys and erasures, page by page; a key the target holds otherwise is a store started on its own. */
export async function copyKeys(source: PersonalKeyStore, target: PersonalKeyStore, targetName: string) {
  let keys = 0;
  let erasures = 0;
  for (let after: string | undefined; ;) {
    const page: KeyRecord[] = await source.exportKeys(after, KEY_BATCH);
    if (page.length === 0) break;
    await target.importKeys(page);
    const held = await target.find(page.map((record) => record.subject));
    for (const record of page) {
      const key = held.get(record.subject);
      if (record.key === null) {
        erasures += 1;
        if (key !== undefined) throw new CopyRefused(`${targetName} still holds the key of ${record.subject}, erased`);
      } else if (key !== undefined && !key.equals(record.key)) {
        // No key after the import is an erasure in the target since an earlier run: it stays erased.
        throw new CopyRefused(
          `${targetName} holds another key for ${record.subject} than the source: a server was started on it before the copy. Copy into an empty store.`,
        );
      } else if (key !== undefined) keys += 1;
    }
    after = page.at(-1)?.subject;
  }
  return { keys, erasures };
}

/**
 * Copies `source` into `target`: the target must be empty or hold a prefix of the source (an earlier run), which is
 * checked at its last event before anything is written.
 */
export async function copyLog(
  source: OpenedStore,
  target: OpenedStore,
  limit: CopyLimit = {},
  onProgress?: (copied: number) => void,
): Promise<CopyResult> {
  const from = source.copyLog;
  const into = target.copyLog;
  const last = await target.lastCopied();
  let alreadyThere = 0;
  // The source's own position of the target's last event: where the copy goes on.
  let after = 0n;
  if (last !== undefined) {
    const theirs = await source.counterpart(last);
    if (theirs === undefined || differenceBetween(source.view(theirs), last) !== undefined)
      throw new CopyRefused(
        `${target.name} is not empty and its last event (position ${last.position}) is not the source's: it holds another log. Copy into an empty store.`,
      );
    after = theirs.position;
    alreadyThere = await into.countEvents();
  }
  await copyKeys(source.keys, target.keys, target.name);
  let copied = 0;
  const imported = (count: number) => {
    copied += count;
    onProgress?.(copied);
  };
  // From the embedded store into PostgreSQL: rows written out in SQL and taken by COPY as they are.
  if (from.exportRows !== undefined && into.importRows !== undefined && limit.asOf === undefined) {
    const rowsOf = from as Pick<Required<ExactLog>, 'exportRows'>;
    await into.importRows(rowBatchesOf(rowsOf, after, limit.lastPosition), imported);
    after = (await target.events.headPosition()) ?? 0n;
  }
  try {
    await into.importEvents(batchesOf(source, after, limit), imported);
  } catch (error) {
    // An event the target cannot take where its source has it (ExactLog.importEvents): the batches before it stay.
    if (error instanceof RangeError)
      throw new CopyRefused(`${target.name} cannot take the source's next event: ${error.message}`);
    throw error;
  }
  const deleted = new Set(await into.deletedStreams());
  const newlyDeleted = (await from.deletedStreams()).filter((stream) => !deleted.has(stream));
  if (newlyDeleted.length > 0) await into.markDeleted(newlyDeleted);
  const { keys, erasures } = await copyKeys(source.keys, target.keys, target.name);
  return { alreadyThere, copied, keys, erasures, headPosition: await target.events.headPosition() };
}
