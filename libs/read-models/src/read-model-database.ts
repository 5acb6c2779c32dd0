import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

export type ReadModelDatabase = Database.Database;

export const readModelsFileName = 'read-models.sqlite';

const defaultBusyTimeoutMs = 10_000;

export function readModelsFile(dataDir: string): string {
  return path.join(dataDir, readModelsFileName);
}

export function openReadModelDatabase(
  dataDir: string | ':memory:',
  { busyTimeoutMs = defaultBusyTimeoutMs } = {},
): ReadModelDatabase {
  if (dataDir !== ':memory:') fs.mkdirSync(dataDir, { recursive: true });
  const db = new Database(dataDir === ':memory:' ? ':memory:' : readModelsFile(dataDir));
  // WAL: readers never wait for the projector. NORMAL: a killed process loses no commit; a power
  // cut may lose the last ones, together with their checkpoint, so they are simply replayed.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  // Rows of an erased person are rewritten or deleted: their old bytes must not stay in the file's free space.
  db.pragma('secure_delete = ON');
  return db;
}

export function tableExists(db: ReadModelDatabase, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}
