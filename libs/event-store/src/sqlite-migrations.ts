import type Database from 'better-sqlite3';
import { appendOnlyTrigger, rechainFrom } from './sqlite-rechain.js';

/** `sql`, then `run` (a step SQL cannot say), in the migration's one transaction. */
export type SchemaMigration = { version: number; name: string; sql: string; run?: (db: Database.Database) => void };

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
  {
    version: 2,
    name: 'store identity, deleted streams, append-only events',
    sql: `
      -- One row: this log's identity, which read models record with their checkpoints.
      CREATE TABLE store_identity (id TEXT NOT NULL) STRICT;
      INSERT INTO store_identity (id) VALUES (lower(hex(randomblob(16))));
      -- How an operator deletes a stream: its events stay in the log (as EventStoreDB keeps a deleted
      -- stream's events in $all until a scavenge), it reads as not found and refuses every append.
      CREATE TABLE deleted_streams (stream_id TEXT PRIMARY KEY, deleted_at TEXT NOT NULL) STRICT;
      -- Removing or changing rows would hand positions out again and rewrite what auditors have seen.
      CREATE TRIGGER events_are_never_deleted BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only: to delete a stream, insert it into deleted_streams'); END;
      CREATE TRIGGER events_are_never_changed BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    `,
  },
  {
    version: 3,
    name: 'the chain: each event hashed with the one before',
    sql: `
      -- Given at append, under the write lock that orders positions (event-chain.ts); NULL for an event written before
      -- the chain, until chorus store:chain gives it one.
      ALTER TABLE events ADD COLUMN hash BLOB;
      -- The one change a row may take: its first hash, nothing else.
      DROP TRIGGER events_are_never_changed;
      CREATE TRIGGER events_are_never_changed BEFORE UPDATE ON events
        WHEN NOT (OLD.hash IS NULL AND NEW.hash IS NOT NULL AND NEW.position = OLD.position
          AND NEW.stream_id = OLD.stream_id AND NEW.revision = OLD.revision AND NEW.event_id = OLD.event_id
          AND NEW.type = OLD.type AND NEW.data = OLD.data AND NEW.metadata = OLD.metadata
          AND NEW.recorded_at = OLD.recorded_at)
        BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    `,
  },
  {
    version: 4,
    name: "the chain's second encoding: each event's digest linked to the hash before",
    sql: '',
    // Hashes given in the first encoding (chorus-chain-v1, before any checkpoint was signed) given again in the second,
    // under the migration's write lock; a store with no hash yet is left to chorus store:chain.
    run: (db) => {
      const trigger = appendOnlyTrigger(db);
      db.exec('DROP TRIGGER IF EXISTS events_are_never_changed');
      const first = db.prepare<[], bigint>('SELECT min(position) FROM events').pluck().safeIntegers().get();
      if (first !== null && first !== undefined) rechainFrom(db, first);
      if (trigger !== undefined) db.exec(trigger);
    },
  },
];

/** The personal keys' own file (personal-keys.sqlite): its writes never wait on the log's, nor the log's on them. */
export const PERSONAL_KEY_MIGRATIONS: readonly SchemaMigration[] = [
  {
    version: 1,
    name: 'personal data keys',
    sql: `
      -- Apart from the log: a deleted key (key NULL, erased_at set) is a person forgotten, and stays so.
      CREATE TABLE personal_keys (subject TEXT PRIMARY KEY, key BLOB, created_at TEXT NOT NULL, erased_at TEXT) STRICT;
    `,
  },
];

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
      throw new Error(
        `${db.name}: schema version ${current} is newer than this Chorus knows (${latest}); upgrade Chorus`,
      );
    }
    const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= current) continue;
      db.exec(migration.sql);
      migration.run?.(db);
      record.run(migration.version, migration.name, now().toISOString());
    }
  });
  // IMMEDIATE: two processes opening a fresh file at once must not both migrate.
  apply.immediate();
  return latest;
}
