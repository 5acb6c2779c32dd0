// Every erasure, recorded beside the backups (BACKUP_DIR/erasures.jsonl): a user id, a time and a position, never
// personal data. A backup restored later holds the people erased after it was taken; `chorus store:restore` reads
// this record and erases them again before anything serves (docs/operations.md).
import { appendFile, open, readFile } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const ERASURES_FILE = 'erasures.jsonl';

export type ErasureRecord = { userId: string; erasedAt: string; position: string | null };

/** Appended and synced before the erasure is answered: an acknowledged erasure is never missing here. */
export async function recordErasure(backupDir: string, record: ErasureRecord): Promise<void> {
  mkdirSync(backupDir, { recursive: true, mode: 0o700 });
  const file = join(backupDir, ERASURES_FILE);
  await appendFile(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The records in order; a last line cut short by a crash (its erasure never answered) is left out. */
export async function erasureRecords(backupDir: string): Promise<ErasureRecord[]> {
  let text: string;
  try {
    text = await readFile(join(backupDir, ERASURES_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: ErasureRecord[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const record = JSON.parse(line) as Partial<ErasureRecord>;
      if (typeof record.userId === 'string' && typeof record.erasedAt === 'string')
        records.push({ userId: record.userId, erasedAt: record.erasedAt, position: record.position ?? null });
    } catch {
      // Torn by a crash mid-write: that erasure was never answered.
    }
  }
  return records;
}
