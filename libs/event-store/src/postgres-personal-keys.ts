// PostgreSQL's keys: a table beside the log's. An erased key's row is overwritten with NULL and the table rewritten;
// the write-ahead log keeps the old bytes until its segments are recycled (docs/privacy.md).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  PERSONAL_KEY_BYTES,
  PersonalDataErasedError,
  type KeyRecord,
  type PersonalKeyStore,
} from './personal-keys.port.js';
import { migratePostgresSchema } from './postgres-schema.js';

export class PostgresPersonalKeys implements PersonalKeyStore {
  static async connect(options: { connectionString: string }): Promise<PostgresPersonalKeys> {
    const pool = new pg.Pool({ connectionString: options.connectionString, max: 2 });
    pool.on('error', () => undefined);
    try {
      const client = await pool.connect();
      try {
        await migratePostgresSchema(client);
      } finally {
        client.release();
      }
      return new PostgresPersonalKeys(pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
  }

  private constructor(private readonly pool: pg.Pool) {}

  async find(subjects: readonly string[]): Promise<Map<string, Buffer>> {
    const { rows } = await this.pool.query<{ subject: string; key: Buffer }>(
      'SELECT subject, key FROM personal_keys WHERE subject = ANY($1) AND key IS NOT NULL',
      [[...new Set(subjects)]],
    );
    return new Map(rows.map((row) => [row.subject, row.key]));
  }

  async obtain(subject: string): Promise<Buffer> {
    await this.pool.query('INSERT INTO personal_keys (subject, key) VALUES ($1, $2) ON CONFLICT (subject) DO NOTHING', [
      subject,
      randomBytes(PERSONAL_KEY_BYTES),
    ]);
    // A statement of its own: its snapshot sees the row another node's insert committed while this one waited.
    const { rows } = await this.pool.query<{ key: Buffer | null }>('SELECT key FROM personal_keys WHERE subject = $1', [
      subject,
    ]);
    const key = rows[0]?.key ?? null;
    if (key === null) throw new PersonalDataErasedError(subject);
    return key;
  }

  async obtainAll(subjects: readonly string[]): Promise<Map<string, Buffer>> {
    const all = [...new Set(subjects)];
    const found = new Map<string, Buffer>();
    for (let from = 0; from < all.length; from += 10_000) {
      const part = all.slice(from, from + 10_000);
      await this.pool.query(
        'INSERT INTO personal_keys (subject, key) SELECT * FROM unnest($1::text[], $2::bytea[]) ON CONFLICT (subject) DO NOTHING',
        [part, part.map(() => randomBytes(PERSONAL_KEY_BYTES))],
      );
      for (const [subject, key] of await this.find(part)) found.set(subject, key);
    }
    return found;
  }

  async erase(subject: string): Promise<void> {
    await this.pool.query(
      `INSERT INTO personal_keys (subject, key, erased_at) VALUES ($1, NULL, now())
       ON CONFLICT (subject) DO UPDATE SET key = NULL, erased_at = now() WHERE personal_keys.erased_at IS NULL`,
      [subject],
    );
    // Rewrites the table into new files and removes the old ones: the erased row's bytes leave the table's files.
    await this.pool.query('VACUUM FULL personal_keys');
  }

  async subjects(prefix: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ subject: string }>(
      'SELECT subject FROM personal_keys WHERE key IS NOT NULL AND starts_with(subject, $1) ORDER BY subject',
      [prefix],
    );
    return rows.map((row) => row.subject);
  }

  async exportKeys(afterSubject: string | undefined, maxCount: number): Promise<KeyRecord[]> {
    const { rows } = await this.pool.query<{
      subject: string;
      key: Buffer | null;
      created: string;
      erased: string | null;
    }>(
      `SELECT subject, key, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created,
              to_char(erased_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS erased
       FROM personal_keys WHERE subject > $1 ORDER BY subject LIMIT $2`,
      [afterSubject ?? '', maxCount],
    );
    return rows.map((row) => ({ subject: row.subject, key: row.key, createdAt: row.created, erasedAt: row.erased }));
  }

  async importKeys(records: readonly KeyRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.pool.query(
      `INSERT INTO personal_keys (subject, key, created_at, erased_at)
       SELECT * FROM unnest($1::text[], $2::bytea[], $3::timestamptz[], $4::timestamptz[]) ON CONFLICT (subject) DO NOTHING`,
      [
        records.map((record) => record.subject),
        records.map((record) => record.key),
        records.map((record) => record.createdAt),
        records.map((record) => record.erasedAt),
      ],
    );
    const erasures = records.filter((record) => record.key === null);
    if (erasures.length === 0) return;
    // An erasure taken from elsewhere overwrites a key this store held, as an erasure here would, at its own time.
    const { rowCount } = await this.pool.query(
      `UPDATE personal_keys SET key = NULL, erased_at = coalesce(erased.at, now())
       FROM unnest($1::text[], $2::timestamptz[]) AS erased (subject, at)
       WHERE personal_keys.subject = erased.subject AND personal_keys.key IS NOT NULL`,
      [erasures.map((record) => record.subject), erasures.map((record) => record.erasedAt)],
    );
    if ((rowCount ?? 0) > 0) await this.pool.query('VACUUM FULL personal_keys');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
