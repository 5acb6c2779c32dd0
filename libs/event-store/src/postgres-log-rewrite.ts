// PostgreSQL's log rewritten in one transaction under the log lock, the append-only trigger disabled inside it, then
// the table rewritten by VACUUM FULL so that no dead row keeps what was replaced (its WAL segments age out as usual).
import pg from 'pg';
import { CHAIN_GENESIS, chainLink } from './event-chain.js';
import type { RecordedEvent } from './event-store.port.js';
import type { EventRewrite, LogRewriteResult, LogRewriter } from './log-rewrite.port.js';
import {
  CHAINED_PAGE,
  EVENT_ROW_COLUMNS,
  toRecordedEvent,
  toStoredEvent,
  type ChainedEventRow,
  type EventRow,
} from './postgres-event-row.js';
import { LOG_LOCK_KEY, migratePostgresSchema } from './postgres-schema.js';

const PAGE = 1_000;

export class PostgresLogRewriter implements LogRewriter {
  static async connect(connectionString: string): Promise<PostgresLogRewriter> {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await migratePostgresSchema(client);
    } catch (error) {
      await client.end();
      throw error;
    }
    return new PostgresLogRewriter(client);
  }

  private constructor(private readonly client: pg.Client) {}

  async rewrite(
    change: (event: RecordedEvent) => Promise<EventRewrite | undefined>,
    check: (rewritten: RecordedEvent, original: RecordedEvent) => Promise<void>,
  ): Promise<LogRewriteResult> {
    const result: LogRewriteResult = { examined: 0, rewritten: 0 };
    let firstRewritten: string | undefined;
    await this.client.query('BEGIN');
    try {
      await this.client.query('SELECT pg_advisory_xact_lock($1)', [LOG_LOCK_KEY.toString()]);
      // Every user trigger: deletes refused for the statement, and a row's one change (its first hash).
      await this.client.query('ALTER TABLE events DISABLE TRIGGER USER');
      let after = '0';
      for (;;) {
        const { rows } = await this.client.query<EventRow>(
          `SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE position > $1 ORDER BY events.position LIMIT ${PAGE}`,
          [after],
        );
        if (rows.length === 0) break;
        for (const row of rows) {
          after = row.position;
          const original = toRecordedEvent(row);
          result.examined += 1;
          const rewrite = await change(original);
          if (rewrite === undefined) continue;
          await this.client.query('UPDATE events SET stream_id = $1, data = $2, metadata = $3 WHERE position = $4', [
            rewrite.streamId,
            JSON.stringify(rewrite.data),
            JSON.stringify(rewrite.metadata),
            row.position,
          ]);
          if (rewrite.streamId !== original.streamId) {
            await this.client.query('UPDATE deleted_streams SET stream_id = $1 WHERE stream_id = $2', [
              rewrite.streamId,
              original.streamId,
            ]);
          }
          const stored = await this.client.query<EventRow>(
            `SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE position = $1`,
            [row.position],
          );
          await check(toRecordedEvent(stored.rows[0] as EventRow), original);
          result.rewritten += 1;
          firstRewritten ??= row.position;
        }
      }
      if (firstRewritten !== undefined) result.rechainedFrom = await this.rechain(firstRewritten);
      await this.client.query('ALTER TABLE events ENABLE TRIGGER USER');
      await this.client.query('COMMIT');
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    await this.client.query('VACUUM FULL events');
    await this.client.query('VACUUM FULL deleted_streams');
    return result;
  }

  /**
   * The chain given again from the first rewritten event to the head, over the new bytes, in the rewrite's
   * transaction. A log written before the chain keeps no hashes: undefined.
   */
  private async rechain(from: string): Promise<bigint | undefined> {
    const before = await this.client.query<{ hash: Buffer | null }>(
      'SELECT hash FROM events WHERE position < $1 ORDER BY position DESC LIMIT 1',
      [from],
    );
    const start = before.rows[0];
    if (start !== undefined && start.hash === null) return undefined;
    let previous = start?.hash ?? CHAIN_GENESIS;
    for (let after = (BigInt(from) - 1n).toString(); ;) {
      const { rows } = await this.client.query<ChainedEventRow>(CHAINED_PAGE, [after, PAGE]);
      if (rows.length === 0) break;
      const positions: string[] = [];
      const hashes: Buffer[] = [];
      for (const row of rows) {
        // Unchained from here on (a log being chained): nothing after it has a hash to give again.
        if (row.hash === null) break;
        previous = chainLink(previous, toStoredEvent(row));
        positions.push(row.position);
        hashes.push(previous);
      }
      await this.client.query(
        'UPDATE events SET hash = given.hash FROM unnest($1::bigint[], $2::bytea[]) AS given (position, hash) WHERE events.position = given.position',
        [positions, hashes],
      );
      if (positions.length < rows.length) break;
      after = rows.at(-1)?.position ?? after;
    }
    return BigInt(from);
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
