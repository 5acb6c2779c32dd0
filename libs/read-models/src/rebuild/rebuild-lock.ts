// At most one rebuild per DATA_DIR, and start-up never drops the aside tables of a rebuild still running.
import Database from 'better-sqlite3';
import path from 'node:path';

export const rebuildLockFileName = 'read-models.rebuild.lock';

/**
 * SQLite's own exclusive lock on a small file of its own, held for the whole rebuild: the kernel
 * releases it when the holder ends in any way (SIGKILL, out of memory), so no stale lock is ever left
 * behind, and it works between processes and between connections of one process alike.
 */
export class RebuildLock {
  private constructor(private readonly db: Database.Database) {}

  /** The lock, waiting up to `waitMs` for its holder; undefined when it is still held after that. */
  static acquire(dataDir: string, waitMs: number): RebuildLock | undefined {
    const db = new Database(path.join(dataDir, rebuildLockFileName), { timeout: waitMs });
    try {
      db.exec('BEGIN EXCLUSIVE');
      return new RebuildLock(db);
    } catch (error) {
      db.close();
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return undefined;
      throw error;
    }
  }

  release(): void {
    if (!this.db.open) return;
    this.db.exec('ROLLBACK');
    this.db.close();
  }
}
