// Events written into PostgreSQL at their own positions, for restores and copies. Each batch lands whole in its own
// transaction under the log lock, so an import stopped at any moment leaves a prefix; and the next batch is read from
// its source and prepared (chained where its source had no hash, written out as COPY's text) while PostgreSQL takes
// this one, so the two processes work at once instead of in turn.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { CHAIN_GENESIS, importedHash } from './event-chain.js';
import type { EventBatches, StoredEvent } from './event-store.port.js';
import { APPENDED_CHANNEL } from './postgres-group-commit.js';
import { LOG_LOCK_KEY } from './postgres-schema.js';

const COPY_EVENTS =
  'COPY events (position, stream_id, revision, event_id, type, data, metadata, recorded_at, hash) FROM STDIN';

/** Events chained and written out between two turns of the event loop, so the COPY under way is fed meanwhile. */
const PREPARED_AT_ONCE = 1_000;

/** The log's last event and its hash (null: a log not chained), which the next event links to. */
type LogEnd = { position: bigint; hash: Buffer | null };

/**
 * A batch checked on its own, chained on from `from`, and written out as COPY's text (a chunk per
 * PREPARED_AT_ONCE events); `continued`: the streams it goes on with, at their first revision in it.
 */
type Prepared = {
  events: readonly StoredEvent[];
  from: LogEnd;
  to: LogEnd;
  text: string[];
  continued: Map<string, bigint>;
};

export async function importIntoPostgres(
  pool: pg.Pool,
  batches: EventBatches,
  onImported?: (events: number) => void,
): Promise<void> {
  const source = nonEmpty(batches);
  const client = await pool.connect();
  try {
    const first = await source.next();
    if (first.done === true) return;
    // Chained on from the end read now, and checked again under the lock before it is written.
    let prepared: Prepared | undefined = await prepare(first.value, await logEnd(client));
    while (prepared !== undefined) {
      let following: Promise<Prepared | undefined> | undefined;
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1)', [LOG_LOCK_KEY.toString()]);
        const end = await logEnd(client);
        // Another writer moved the end since: chained again from it (its positions are then refused if they clash).
        if (end.position !== prepared.from.position || !sameHash(end.hash, prepared.from.hash))
          prepared = await prepare(prepared.events, end);
        await checkStreamHeads(client, prepared.continued);
        const copying = pipeline(Readable.from(prepared.text), client.query(copyFrom(COPY_EVENTS)));
        copying.catch(() => undefined); // awaited below, while the next batch is read and prepared
        const chainedTo: LogEnd = prepared.to;
        following = source.next().then((next) => (next.done === true ? undefined : prepare(next.value, chainedTo)));
        following.catch(() => undefined); // awaited after this batch commits: its refusal leaves this one written
        await copying.catch((error: unknown) => {
          if ((error as { constraint?: string }).constraint === 'events_stream_revision')
            throw new RangeError(`A stream of the import starts at revision 0 but is not new here: ${String(error)}`);
          throw error;
        });
        await client.query(`SELECT pg_notify('${APPENDED_CHANNEL}', '')`);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        await following?.catch(() => undefined);
        throw error;
      }
      onImported?.(prepared.events.length);
      prepared = await following;
    }
  } finally {
    client.release();
  }
}

async function* nonEmpty(batches: EventBatches): AsyncGenerator<readonly StoredEvent[]> {
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
async function prepare(events: readonly StoredEvent[], from: LogEnd): Promise<Prepared> {
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
  return { events, from, to: { position: last, hash: previous }, text, continued };
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
