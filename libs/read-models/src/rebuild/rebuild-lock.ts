import Database from 'better-sqlite3';
import path from 'node:path';

export const rebuildLockFileName = 'read-models.rebuild.lock';

/** SQLite's lock: the kernel releases it however the holder ends (SIGKILL, out of memory), so none is left stale. */
export class RebuildLock {
  private constructor(private readonly db: Database.Database) {}

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
