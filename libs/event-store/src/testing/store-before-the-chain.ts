// An embedded store as Chorus wrote it before the chain (schema 2): its events have no hash until store:chain.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { EVENT_STORE_MIGRATIONS, migrateEventStoreSchema } from '../sqlite-migrations.js';

/** `count` events on stream `streamId`, revisions 0 to count - 1, at positions 1 to count. */
export function writeStoreBeforeTheChain(file: string, streamId: string, count: number): void {
  const old = new Database(file);
  try {
    migrateEventStoreSchema(
      old,
      EVENT_STORE_MIGRATIONS.filter((migration) => migration.version <= 2),
    );
    const insert = old.prepare(
      `INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at)
       VALUES (?, ?, ?, 'SomethingHappened', '{}', '{}', '2024-01-01T00:00:00.000Z')`,
    );
    for (let revision = 0; revision < count; revision += 1) insert.run(streamId, revision, randomUUID());
  } finally {
    old.close();
  }
}
