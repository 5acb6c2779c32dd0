import type pg from 'pg';

export type PostgresMigration = { version: number; name: string; sql: string };

/** Taken by every migration and every append: one lock for the schema and the log's next positions. */
export const LOG_LOCK_KEY = 0x43686f7275736c6fn;

/** Applied in order at open; a released migration is never edited, only followed by a new one. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'events, store identity, deleted streams, append-only events',
    sql: `
      -- position is given by the adapter under the log lock (never a sequence: an aborted transaction would leave a gap).
      -- COLLATE "C": stream ids compare byte by byte, as readLogByStream promises, whatever the database's locale.
      CREATE TABLE events (
        position bigint PRIMARY KEY CHECK (position > 0),
        stream_id text COLLATE "C" NOT NULL,
        revision bigint NOT NULL CHECK (revision >= 0),
        event_id text NOT NULL,
        type text NOT NULL,
        data text NOT NULL,
        metadata text NOT NULL,
        recorded_at timestamptz NOT NULL,
        CONSTRAINT events_stream_revision UNIQUE (stream_id, revision),
        CONSTRAINT events_stream_event_id UNIQUE (stream_id, event_id)
      );
      -- One row: this log's identity, which read models record with their checkpoints.
      CREATE TABLE store_identity (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), id text NOT NULL);
      INSERT INTO store_identity (id) VALUES (replace(gen_random_uuid()::text, '-', ''));
      -- How an operator deletes a stream: its events stay in the log, it reads as not found and refuses every append.
      CREATE TABLE deleted_streams (stream_id text COLLATE "C" PRIMARY KEY, deleted_at timestamptz NOT NULL DEFAULT now());
      -- Removing or changing rows would hand positions out again and rewrite what auditors have seen.
      CREATE FUNCTION events_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'events are append-only: to delete a stream, insert it into deleted_streams'; END $$;
      CREATE TRIGGER events_are_append_only BEFORE UPDATE OR DELETE ON events FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();
      CREATE TRIGGER events_are_never_truncated BEFORE TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION events_are_append_only();
    `,
  },
];

/** Brings the database to the latest schema in one transaction, under the log lock (two nodes may open at once). */
export async function migratePostgresSchema(client: pg.ClientBase, migrations: readonly PostgresMigration[] = POSTGRES_MIGRATIONS): Promise<number> {
  const latest = migrations.reduce((highest, migration) => Math.max(highest, migration.version), 0);
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [LOG_LOCK_KEY.toString()]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations');
    const current = rows[0]?.version ?? 0;
    if (current > latest) throw new Error(`the event store's schema version ${current} is newer than this Chorus knows (${latest}); upgrade Chorus`);
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= current) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return latest;
}
