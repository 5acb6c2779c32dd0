// A rebuild killed before its swap leaves a whole second copy of the models behind.
import type { ReadModelDatabase } from '../read-model-database.js';
import type { ReadModelsLogger } from '../read-models-logger.js';
import { asideSuffix } from './rebuild-read-models.js';
import { RebuildLock } from './rebuild-lock.js';

export function dropAbandonedRebuilds(db: ReadModelDatabase, dataDir: string, logger: ReadModelsLogger): string[] {
  if (asideTables(db).length === 0) return [];
  const lock = RebuildLock.acquire(dataDir, 0);
  if (lock === undefined) {
    logger.info({ tables: asideTables(db) }, 'a rebuild is running: its aside tables are left to it');
    return [];
  }
  try {
    // Read again under the lock: a rebuild that ended in between has swapped its tables in.
    const tables = asideTables(db);
    db.transaction(() => {
      for (const table of tables) db.exec(`DROP TABLE IF EXISTS "${table}"`);
    }).immediate();
    if (tables.length > 0) logger.warn({ tables }, 'dropped the aside tables of a rebuild that did not finish');
    return tables;
  } finally {
    lock.release();
  }
}

function asideTables(db: ReadModelDatabase): string[] {
  return db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ? ESCAPE '\\' ORDER BY name")
    .pluck()
    .all(`%${asideSuffix.replaceAll('_', '\\_')}`) as string[];
}
