// Events written into PostgreSQL at their own positions, for restores and copies. Each batch lands whole in its own
// transaction under the log lock, so an import stopped at any moment leaves a prefix; and the next batch is read from
// its source and prepared (chained where its source had no hash, written out as COPY's text) while PostgreSQL takes
// this one, so the two processes work at once instead of in turn. Rows the embedded store wrote out as COPY's text
// itself (EventRows) go as they are; into an empty log they go without its two unique keys, which are built once at
// the end (keeping them row by row took the same COPY twice as long: bench/backup).
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { CHAIN_GENESIS, importedHash } from './event-chain.js';
import type { EventBatches, EventRows, StoredEvent } from './event-store.port.js';
import { APPENDED_CHANNEL } from './postgres-group-commit.js';
import { LOG_LOCK_KEY } from './postgres-schema.js';

const COPY_EVENTS =
  'COPY events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash) FROM STDIN';

/** Events chained and written out between two turns of the event loop, so the COPY under way is fed meanwhile. */
const PREPARED_AT_ONCE = 1_000;

/** The log's last event and its hash (null: a log not chained), which the next event links to. */
type LogEnd = { position: bigint; hash: Buffer | null };

/**
 * A batch checked on its own, chained on from `from`, and written out as COPY's text; `continued`: the streams it goes
 * on with, at their first revision in it; `again`: the same batch prepared on from another end.
 */
type Prepared = {
  count: number;
  from: LogEnd;
  to: LogEnd;
  text: (string | Buffer)[];
  continued: Map<string, bigint>;
  again: (from: LogEnd) => Promise<Prepared>;
};

/** A batch to prepare on from the log's end, once it is known. */
type ToPrepare = (from: LogEnd) => Promise<Prepared>;

/** An unfinished import's keys are built in one statement, as long as the log's size needs (the pool's own bound is 30 s). */
const KEYS_BUILT_WITHIN_MS = 24 * 60 * 60 * 1000;

/** Whether an import into an empty log has not finished here. */
export async function importUnfinished(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ unfinished: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM store_import) AS unfinished',
  );
  return rows[0]?.unfinished === true;
}

export function importIntoPostgres(
  pool: pg.Pool,
  batches: EventBatches,
  onImported?: (events: number) => void,
): Promise<void> {
  return importPrepared(pool, toPrepare(nonEmpty(batches), prepareEvents), false, onImported);
}

export function importRowsIntoPostgres(
  pool: pg.Pool,
  batches: AsyncIterable<readonly EventRows[]>,
  onImported?: (events: number) => void,
): Promise<void> {
  return importPrepared(pool, toPrepare(nonEmpty(batches), prepareRows), true, onImported);
}

/**
 * `intoEmptyWithoutKeys`: rows, whose events were checked at their source's appends, go into an empty log without its
 * two unique keys. An import that finds one unfinished goes on with it and builds them at its end.
 */
async function importPrepared(
  pool: pg.Pool,
  source: AsyncIterator<ToPrepare>,
  intoEmptyWithoutKeys: boolean,
  onImported?: (events: number) => void,
): Promise<void> {
  const client = await pool.connect();
  try {
    const first = await source.next();
    const withoutKeys = await begin(client, intoEmptyWithoutKeys && first.done !== true);
    if (first.done === true) {
      if (withoutKeys) await buildKeys(client);
      return;
    }
    // Chained on from the end read now, and checked again under the lock before it is written.
    let prepared: Prepared | undefined = await first.value(await logEnd(client));
    while (prepared !== undefined) {
      let following: Promise<Prepared | undefined> | undefined;
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1)', [LOG_LOCK_KEY.toString()]);
        const end = await logEnd(client);
        // Another writer moved the end since: chained again from it (its positions are then refused if they clash).
        if (end.position !== prepared.from.position || !sameHash(end.hash, prepared.from.hash))
          prepared = await prepared.again(end);
        await checkStreamHeads(client, prepared.continued);
        const copying = pipeline(Readable.from(prepared.text), client.query(copyFrom(COPY_EVENTS)));
        copying.catch(() => undefined); // awaited below, while the next batch is read and prepared
        const chainedTo: LogEnd = prepared.to;
        following = source.next().then((next) => (next.done === true ? undefined : next.value(chainedTo)));
        following.catch(() => undefined); // awaited after this batch commits: its refusal leaves this one written
        await copying.catch((error: unknown) => {
          if ((error as { constraint?: string }).constraint === 'events_stream_revision')
            throw new RangeError(`A stream of the import has a revision the log holds already: ${String(error)}`);
          throw error;
        });
        await client.query(`SELECT pg_notify('${APPENDED_CHANNEL}', '')`);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        await following?.catch(() => undefined);
        throw error;
      }
      onImported?.(prepared.count);
      prepared = await following;
    }
    if (withoutKeys) await buildKeys(client);
  } finally {
    client.release();
  }
}

/** `work` in one transaction under the log lock, rolled back if it throws. */
async function underLogLock<T>(client: pg.PoolClient, work: () => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOG_LOCK_KEY.toString()]);
    const result = await work();
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Whether the import goes without the log's unique keys: one unfinished here, or `intoEmpty` and the log is empty, in
 * which case they are dropped and the import marked, in one transaction.
 */
function begin(client: pg.PoolClient, intoEmpty: boolean): Promise<boolean> {
  return underLogLock(client, async () => {
    if (await importUnfinished(client)) return true;
    if (!intoEmpty || (await logEnd(client)).position !== 0n) return false;
    await client.query('INSERT INTO store_import DEFAULT VALUES');
    await client.query(
      'ALTER TABLE events DROP CONSTRAINT events_stream_revision, DROP CONSTRAINT events_stream_event_id',
    );
    return true;
  });
}

/** The log's two unique keys built again and the import marked finished, in one transaction. */
function buildKeys(client: pg.PoolClient): Promise<void> {
  return underLogLock(client, async () => {
    await client
      .query({
        text: `ALTER TABLE events ADD CONSTRAINT events_stream_revision UNIQUE (stream_id, revision),
          ADD CONSTRAINT events_stream_event_id UNIQUE (stream_id, event_id)`,
        query_timeout: KEYS_BUILT_WITHIN_MS,
      } as pg.QueryConfig)
      .catch((error: unknown) => {
        if ((error as { code?: string }).code === '23505')
          throw new RangeError(
            `The import holds one stream's revision or event id twice, so the log's keys cannot be built: ${String(error)}`,
          );
        throw error;
      });
    await client.query('DELETE FROM store_import');
  });
}

async function* toPrepare<T>(
  batches: AsyncIterable<T>,
  prepare: (batch: T, from: LogEnd) => Promise<Prepared>,
): AsyncGenerator<ToPrepare> {
  for await (const batch of batches) yield (from) => prepare(batch, from);
}

async function* nonEmpty<T extends { length: number }>(batches: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T> {
  for await (const batch of batches) if (batch.length > 0) yield batch;
}

async function logEnd(client: pg.PoolClient): Promise<LogEnd> {
  const { rows } = await client.query<{ position: string; hash: Buffer | null }>(
    'SELECT position::text, hash FROM events ORDER BY events.position DESC LIMIT 1',
  );
  const last = rows[0];
  return last === undefined
    ? { position: 0n, hash: CHAIN_GENESIS }
    : { position: BigInt(last.position), hash: last.hash };
}

const sameHash = (one: Buffer | null, other: Buffer | null): boolean =>
  one === null || other === null ? one === other : one.equals(other);

/** Each event after the one before it, and a stream's events at consecutive revisions; then chained and written out. */
async function prepareEvents(events: readonly StoredEvent[], from: LogEnd): Promise<Prepared> {
  let last = from.position;
  const revisions = new Map<string, bigint>();
  const continued = new Map<string, bigint>();
  for (const event of events) {
    if (event.position <= last)
      throw new RangeError(`Event at position ${event.position} is not after the log's head (${last})`);
    const before = revisions.get(event.streamId);
    if (before === undefined) {
      if (event.revision > 0n) continued.set(event.streamId, event.revision);
    } else if (event.revision !== before + 1n)
      throw new RangeError(
        `Stream ${event.streamId}: event at revision ${event.revision} does not follow revision ${before}`,
      );
    revisions.set(event.streamId, event.revision);
    last = event.position;
  }
  const text: string[] = [];
  let previous = from.hash;
  for (let start = 0; start < events.length; start += PREPARED_AT_ONCE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    let chunk = '';
    for (const event of events.slice(start, start + PREPARED_AT_ONCE)) {
      previous = importedHash(previous, event);
      chunk += `${copyLine(event, previous)}\n`;
    }
    text.push(chunk);
  }
  return {
    count: events.length,
    from,
    to: { position: last, hash: previous },
    text,
    continued,
    again: (end) => prepareEvents(events, end),
  };
}

/** Rows in order, each piece after the one before; their hashes are their source's. */
async function prepareRows(rows: readonly EventRows[], from: LogEnd): Promise<Prepared> {
  let last = from.position;
  for (const piece of rows) {
    if (piece.firstPosition <= last)
      throw new RangeError(`Event at position ${piece.firstPosition} is not after the log's head (${last})`);
    last = piece.lastPosition;
  }
  const end = rows.at(-1) as EventRows;
  return {
    count: rows.reduce((sum, piece) => sum + piece.count, 0),
    from,
    to: { position: end.lastPosition, hash: end.lastHash },
    text: rows.map((piece) => piece.text),
    continued: new Map(),
    again: (moved) => prepareRows(rows, moved),
  };
}

/**
 * Where a stream goes on from events already stored, it goes on from its head. One that starts at revision 0 must be
 * new, which the (stream, revision) key holds: a clash is refused by the COPY.
 */
async function checkStreamHeads(client: pg.PoolClient, continued: ReadonlyMap<string, bigint>): Promise<void> {
  if (continued.size === 0) return;
  const { rows } = await client.query<{ stream_id: string; revision: string | null }>(
    `SELECT s.stream_id, (SELECT max(revision) FROM events WHERE events.stream_id = s.stream_id)::text AS revision
     FROM unnest($1::text[]) AS s (stream_id)`,
    [[...continued.keys()]],
  );
  const heads = new Map(rows.map((row) => [row.stream_id, row.revision === null ? -1n : BigInt(row.revision)]));
  for (const [stream, first] of continued) {
    const head = heads.get(stream) ?? -1n;
    if (first !== head + 1n)
      throw new RangeError(`Stream ${stream}: event at revision ${first} does not follow revision ${head}`);
  }
}

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const escape = (text: string) => text.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c] as string);

/**
 * COPY's text format: one line per event, tab between columns, and those three and the backslash escaped; a hash as
 * bytea's hex (its backslash escaped), none as \N.
 */
function copyLine(event: StoredEvent, hash: Buffer | null): string {
  return [
    event.position.toString(),
    escape(event.streamId),
    event.revision.toString(),
    escape(event.id),
    escape(event.type),
    escape(event.data),
    escape(event.metadata),
    event.recordedAt,
    hash === null ? '\\N' : `\\\\x${hash.toString('hex')}`,
  ].join('\t');
}
