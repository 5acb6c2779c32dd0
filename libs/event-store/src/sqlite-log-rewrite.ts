// The embedded log rewritten in one IMMEDIATE transaction with the append-only trigger lifted inside it, on a
// connection with secure_delete, then vacuumed and its WAL truncated: no page keeps what was replaced.
import Database from 'better-sqlite3';
import type { RecordedEvent } from './event-store.port.js';
import type { EventRewrite, LogRewriteResult, LogRewriter } from './log-rewrite.port.js';
import { EVENT_ROW_COLUMNS, toRecordedEvent, type EventRow } from './sqlite-event-row.js';
import { migrateEventStoreSchema } from './sqlite-migrations.js';
import { appendOnlyTrigger, rechainFrom } from './sqlite-rechain.js';

const PAGE = 1_000;

export class SqliteLogRewriter implements LogRewriter {
  static open(file: string): SqliteLogRewriter {
    const db = new Database(file, { timeout: 5_000 });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('secure_delete = ON');
    migrateEventStoreSchema(db);
    return new SqliteLogRewriter(db);
  }

  private constructor(private readonly db: Database.Database) {}

  async rewrite(
    change: (event: RecordedEvent) => Promise<EventRewrite | undefined>,
    check: (rewritten: RecordedEvent, original: RecordedEvent) => Promise<void>,
  ): Promise<LogRewriteResult> {
    const page = this.db
      .prepare<[bigint, number], EventRow>(
        `SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?`,
      )
      .raw()
      .safeIntegers();
    const one = this.db
      .prepare<[bigint], EventRow>(`SELECT ${EVENT_ROW_COLUMNS} FROM events WHERE position = ?`)
      .raw()
      .safeIntegers();
    const update = this.db.prepare('UPDATE events SET stream_id = ?, data = ?, metadata = ? WHERE position = ?');
    const renameDeleted = this.db.prepare('UPDATE deleted_streams SET stream_id = ? WHERE stream_id = ?');
    const trigger = appendOnlyTrigger(this.db);
    const result: LogRewriteResult = { examined: 0, rewritten: 0 };
    let firstRewritten: bigint | undefined;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      this.db.exec('DROP TRIGGER IF EXISTS events_are_never_changed');
      let after = 0n;
      for (let rows = page.all(after, PAGE); rows.length > 0; rows = page.all(after, PAGE)) {
        for (const row of rows) {
          const original = toRecordedEvent(row);
          after = original.position;
          result.examined += 1;
          const rewrite = await change(original);
          if (rewrite === undefined) continue;
          update.run(
            rewrite.streamId,
            JSON.stringify(rewrite.data),
            JSON.stringify(rewrite.metadata),
            original.position,
          );
          if (rewrite.streamId !== original.streamId) renameDeleted.run(rewrite.streamId, original.streamId);
          await check(toRecordedEvent(one.get(original.position) as EventRow), original);
          result.rewritten += 1;
          firstRewritten ??= original.position;
        }
      }
      if (firstRewritten !== undefined) result.rechainedFrom = rechainFrom(this.db, firstRewritten);
      if (trigger !== undefined) this.db.exec(trigger);
      this.db.exec('COMMIT');
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
    // Freed pages were zeroed (secure_delete); VACUUM also leaves no old copy in the file's free list or the WAL.
    this.db.exec('VACUUM');
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    return result;
  }

  close(): Promise<void> {
    this.db.close();
    return Promise.resolve();
  }
}
