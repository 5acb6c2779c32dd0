// Every erasure, recorded beside the backups (BACKUP_DIR/erasures-<host>.jsonl): a user id, a time and a position,
// never personal data. A backup restored later holds the people erased after it was taken; `chorus store:restore`
// reads this record and erases them again before anything serves (docs/operations.md).
import { open, readdir, readFile } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The record a build before this one kept, one file for every writer: still read. */
export const ERASURES_FILE = 'erasures.jsonl';

/**
 * One host's record. Nodes share one BACKUP_DIR (docs/operations.md), and appends from two hosts to one file over a
 * network filesystem are not atomic: each host appends to its own.
 */
export const erasuresFileOf = (host: string): string => `erasures-${host.replace(/[^A-Za-z0-9.-]/g, '_')}.jsonl`;

const RECORD_FILE = /^erasures(-[A-Za-z0-9._-]+)?\.jsonl$/;

export type ErasureRecord = { userId: string; erasedAt: string; position: string | null };

/**
 * Appended and synced before the erasure is answered: an acknowledged erasure is never missing here. A line a crash cut
 * short is ended first, so the record after it is a line of its own and reads whole.
 */
export async function recordErasure(backupDir: string, record: ErasureRecord, host = hostname()): Promise<void> {
  mkdirSync(backupDir, { recursive: true, mode: 0o700 });
  const handle = await open(join(backupDir, erasuresFileOf(host)), 'a+', 0o600);
  try {
    const { size } = await handle.stat();
    const last = Buffer.alloc(1);
    if (size > 0) await handle.read(last, 0, 1, size - 1);
    const cutShort = size > 0 && last[0] !== 0x0a;
    await handle.appendFile(`${cutShort ? '\n' : ''}${JSON.stringify(record)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The records of every host, by time; a last line cut short by a crash (its erasure never answered) is left out. */
export async function erasureRecords(backupDir: string): Promise<ErasureRecord[]> {
  let names: string[];
  try {
    names = (await readdir(backupDir)).filter((name) => RECORD_FILE.test(name)).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: ErasureRecord[] = [];
  for (const name of names) records.push(...recordsIn(await readFile(join(backupDir, name), 'utf8')));
  return records.sort((one, other) => one.erasedAt.localeCompare(other.erasedAt));
}

function recordsIn(text: string): ErasureRecord[] {
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
