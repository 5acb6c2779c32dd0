import type Database from 'better-sqlite3';

export type SchemaMigration = { version: number; name: string; sql: string };

/** Applied in order at open; a released migration is never edited, only followed by a new one. */
export const EVENT_STORE_MIGRATIONS: readonly SchemaMigration[] = [
  {
    version: 1,
    name: 'events',
    sql: `
      CREATE TABLE events (
        position INTEGER PRIMARY KEY,
        stream_id TEXT NOT NULL,
        revision INTEGER NOT NULL CHECK (revision >= 0),
        event_id TEXT NOT NULL,
        type TEXT NOT NULL,
        data TEXT NOT NULL,
        metadata TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX events_stream_revision ON events (stream_id, revision);
      CREATE UNIQUE INDEX events_stream_event_id ON events (stream_id, event_id);
    `,
  },
];

/** Brings the database to the latest schema version in one write transaction; returns that version. */
export function migrateEventStoreSchema(
  db: Database.Database,
  migrations: readonly SchemaMigration[] = EVENT_STORE_MIGRATIONS,
  now: () => Date = () => new Date(),
): number {
  const latest = migrations.reduce((highest, migration) => Math.max(highest, migration.version), 0);
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const apply = db.transaction(() => {
    const current = (db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null) ?? 0;
    if (current > latest) {
      throw new Error(`${db.name}: schema version ${current} is newer than this Chorus knows (${latest}); upgrade Chorus`);
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      record.run(migration.version, migration.name, now().toISOString());
    }
  });
  // IMMEDIATE: two processes opening a fresh file at once must not both migrate.
  apply.immediate();
  return latest;
}
