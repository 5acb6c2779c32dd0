// A consistent copy of an embedded store's file while servers write to it: `VACUUM INTO` reads in one transaction,
// so the copy holds the file as it was at one commit, never a torn page or half of the write-ahead log.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Writes `target` (which must not exist) as `source` was at one commit, and syncs it. */
export function snapshotSqliteFile(source: string, target: string): void {
  if (existsSync(target)) throw new Error(`${target} exists already: a snapshot is written to a new file`);
  const db = new Database(source, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
}
