// An import into an empty embedded log (a restore, a copy, a backup of PostgreSQL) goes without the log's two unique
// indexes, which are built once at its end: SQLite kept them row by row at three times the cost of the rows alone
// (bench/backup). Until that end they are missing, and that is the mark: the store opens only for an import
// (UnfinishedImport), and the next import goes on with the stream heads read once from the log.
import type Database from 'better-sqlite3';

const UNIQUE_INDEXES = ['events_stream_revision', 'events_stream_event_id'] as const;

/** Whether an import into an empty log has not finished here (its unique indexes are missing). */
export function importUnfinished(db: Database.Database): boolean {
  const present = db
    .prepare(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN (?, ?)`)
    .pluck()
    .safeIntegers(false)
    .get(...UNIQUE_INDEXES) as number;
  return present < UNIQUE_INDEXES.length;
}

/**
 * In the import's first transaction: the heads of the log's streams when the import goes without the unique indexes
 * (one unfinished here, read once from the log; or `intoEmpty` and the log is empty, the indexes then dropped), else
 * undefined (an import into a log that holds events keeps them).
 */
export function beginImport(db: Database.Database, intoEmpty: boolean): Map<string, bigint> | undefined {
  if (importUnfinished(db)) {
    const heads = db.prepare('SELECT stream_id, max(revision) FROM events GROUP BY stream_id').raw(true).all() as [
      string,
      bigint,
    ][];
    return new Map(heads);
  }
  if (!intoEmpty || db.prepare('SELECT EXISTS (SELECT 1 FROM events)').pluck().safeIntegers(false).get() === 1)
    return undefined;
  for (const index of UNIQUE_INDEXES) db.exec(`DROP INDEX ${index}`);
  return new Map();
}

/** In the import's last transaction: the two indexes built again; a revision or an event id held twice refuses it. */
export function finishImport(db: Database.Database): void {
  try {
    db.exec(`CREATE UNIQUE INDEX IF NOT EXISTS events_stream_revision ON events (stream_id, revision);
      CREATE UNIQUE INDEX IF NOT EXISTS events_stream_event_id ON events (stream_id, event_id);`);
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE')
      throw new RangeError(
        `The import holds one stream's revision or event id twice, so the log's indexes cannot be built: ${String(error)}`,
        { cause: error },
      );
    throw error;
  }
}
