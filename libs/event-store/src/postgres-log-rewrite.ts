// PostgreSQL's log rewritten in one transaction under the log lock, the append-only trigger disabled inside it, then
// the table rewritten by VACUUM FULL so that no dead row keeps what was replaced (its WAL segments age out as usual).
import pg from 'pg';
import type { RecordedEvent } from './event-store.port.js';
import type { EventRewrite, LogRewriteResult, LogRewriter } from './log-rewrite.port.js';
import { LOG_LOCK_KEY, migratePostgresSchema } from './postgres-schema.js';

const PAGE = 1_000;

type Row = {
  position: string;
  stream_id: string;
  revision: string;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
  recorded_at: Date;
};

const recorded = (row: Row): RecordedEvent => ({
  position: BigInt(row.position),
  streamId: row.stream_id,
  revision: BigInt(row.revision),
  id: row.event_id,
  type: row.type,
  data: JSON.parse(row.data) as unknown,
  metadata: JSON.parse(row.metadata) as RecordedEvent['metadata'],
  recordedAt: row.recorded_at.toISOString(),
});

const COLUMNS = 'position::text, stream_id, revision::text, event_id, type, data, metadata, recorded_at';

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
    const result = { examined: 0, rewritten: 0 };
    await this.client.query('BEGIN');
    try {
      await this.client.query('SELECT pg_advisory_xact_lock($1)', [LOG_LOCK_KEY.toString()]);
      await this.client.query('ALTER TABLE events DISABLE TRIGGER events_are_append_only');
      let after = '0';
      for (;;) {
        const { rows } = await this.client.query<Row>(
          `SELECT ${COLUMNS} FROM events WHERE position > $1 ORDER BY position LIMIT ${PAGE}`,
          [after],
        );
        if (rows.length === 0) break;
        for (const row of rows) {
          after = row.position;
          const original = recorded(row);
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
          const stored = await this.client.query<Row>(`SELECT ${COLUMNS} FROM events WHERE position = $1`, [
            row.position,
          ]);
          await check(recorded(stored.rows[0] as Row), original);
          result.rewritten += 1;
        }
      }
      await this.client.query('ALTER TABLE events ENABLE TRIGGER events_are_append_only');
      await this.client.query('COMMIT');
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    await this.client.query('VACUUM FULL events');
    await this.client.query('VACUUM FULL deleted_streams');
    return result;
  }

  async close(): Promise<void> {
    await this.client.end();
  }
}
