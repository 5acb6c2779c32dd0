// `chorus store:backup`: a backup taken while servers write. The log is taken first at one commit, the keys after it,
// so every event in the backup opens with a key in the backup (a key is made before any event sealed under it).
// The folder is laid out as a DATA_DIR (events.sqlite, personal-keys.sqlite), whatever store it came from, so a
// restore or a copy reads it as an embedded store; the manifest is written last.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { copyFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '#config';
import { PERSONAL_KEYS_FILE, snapshotSqliteFile } from '#event-store';
import { chorusVersion } from '../version.js';
import { backupKeyOf, encryptFile } from './backup-crypto.js';
import { BACKUP_FORMAT, MANIFEST, writeManifest, type Manifest } from './backup-manifest.js';
import { copyLog } from './copy-log.js';
import { syncFile } from './durable-files.js';
import { openConfiguredStore, openStoreAt } from './stores.js';

export const EVENTS_FILE = 'events.sqlite';
export const SESSION_SECRET_FILE = 'session-secret';
/** Where a backup keeps what Chorus generated into DATA_DIR because no setting gave it. */
export const SECRETS_FOLDER = 'secrets';
/** Plain files while a backup is made; gone before its manifest is written. */
const WORK_FOLDER = '.work';

export type BackupResult = { folder: string; manifest: Manifest };

/** A folder name that sorts by time and is valid on every file system. */
const folderNameOf = (time: Date): string => time.toISOString().replace(/:/g, '-');

export async function takeBackup(
  config: Config,
  to: string,
  now: () => Date = () => new Date(),
): Promise<BackupResult> {
  const takenAt = now();
  mkdirSync(to, { recursive: true, mode: 0o700 });
  let folder = join(to, folderNameOf(takenAt));
  // Two backups in one millisecond: the second gets a suffix rather than sharing a folder.
  if (existsSync(folder)) folder = `${folder}-${randomUUID().slice(0, 8)}`;
  const work = join(folder, WORK_FOLDER);
  mkdirSync(work, { recursive: true, mode: 0o700 });

  const source = await openConfiguredStore(config);
  let storeKind: Manifest['storeKind'];
  let storeId: string;
  try {
    if (source.kind === 'eventstoredb')
      throw new Error(
        'store:backup reads the embedded store and PostgreSQL; EventStoreDB is backed up by its own tools (docs/operations.md)',
      );
    storeKind = source.kind;
    storeId = await source.events.storeId();
    if (source.kind === 'embedded') {
      snapshotSqliteFile(join(config.dataDir, EVENTS_FILE), join(work, EVENTS_FILE));
      snapshotSqliteFile(join(config.dataDir, PERSONAL_KEYS_FILE), join(work, PERSONAL_KEYS_FILE));
    } else {
      // PostgreSQL: the head read first bounds the copy; keys are copied after the events (copyLog's last pass).
      const head = await source.events.headPosition();
      const target = await openStoreAt(work, { create: true });
      try {
        await copyLog(source, target, head === undefined ? { lastPosition: 0n } : { lastPosition: head });
      } finally {
        await target.close();
      }
    }
  } finally {
    await source.close();
  }

  const sessionSecret = join(config.dataDir, SESSION_SECRET_FILE);
  if (config.sessionSecret === undefined && existsSync(sessionSecret)) {
    mkdirSync(join(work, SECRETS_FOLDER), { mode: 0o700 });
    await copyFile(sessionSecret, join(work, SECRETS_FOLDER, SESSION_SECRET_FILE));
  }

  const taken = await openStoreAt(work);
  let headPosition: bigint | undefined;
  let eventCount: number;
  try {
    headPosition = await taken.events.headPosition();
    eventCount = await (taken.exact as NonNullable<typeof taken.exact>).countEvents();
  } finally {
    await taken.close();
  }

  const plainFiles = [EVENTS_FILE, PERSONAL_KEYS_FILE, ...listSecrets(work)];
  const key = config.backupEncryptionKey === undefined ? undefined : backupKeyOf(config.backupEncryptionKey);
  for (const file of plainFiles) {
    const target = join(folder, key === undefined ? file : `${file}.enc`);
    mkdirSync(join(target, '..'), { recursive: true, mode: 0o700 });
    if (key === undefined) await rename(join(work, file), target);
    else await encryptFile(join(work, file), target, key);
    await syncFile(target);
  }
  await rm(work, { recursive: true, force: true });

  const manifest = await writeManifest(folder, {
    format: BACKUP_FORMAT,
    storeKind,
    storeId,
    headPosition: headPosition === undefined ? null : headPosition.toString(),
    eventCount,
    chorusVersion: chorusVersion(),
    takenAt: takenAt.toISOString(),
    encryption: key === undefined ? null : { algorithm: 'aes-256-gcm', keyId: key.keyId },
  });
  return { folder, manifest };
}

function listSecrets(work: string): string[] {
  const folder = join(work, SECRETS_FOLDER);
  return existsSync(folder) ? readdirSync(folder).map((file) => join(SECRETS_FOLDER, file)) : [];
}

function takenAtOf(folder: string): number {
  try {
    return Date.parse((JSON.parse(readFileSync(join(folder, MANIFEST), 'utf8')) as { takenAt: string }).takenAt);
  } catch {
    return statSync(join(folder, MANIFEST)).mtimeMs;
  }
}

export type PruneResult = { deleted: string[]; kept: string[] };

/**
 * Deletes the backups in `to` taken more than `keepDays` days ago, and every folder a backup cut short left (no
 * manifest) once it is an hour old (a backup may be under way in a younger one). The newest whole backup is always
 * kept.
 */
export function pruneBackups(to: string, keepDays: number, now: Date = new Date()): PruneResult {
  const deleted: string[] = [];
  const kept: string[] = [];
  if (!existsSync(to)) return { deleted, kept };
  const folders = readdirSync(to, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(to, entry.name))
    .sort();
  const whole = folders.filter((folder) => existsSync(join(folder, MANIFEST)));
  const newest = whole.at(-1);
  const cutoff = now.getTime() - keepDays * 86_400_000;
  for (const folder of folders) {
    const complete = whole.includes(folder);
    const time = complete ? takenAtOf(folder) : statSync(folder).mtimeMs;
    const old = complete ? time < cutoff : time < now.getTime() - 3_600_000;
    if (old && folder !== newest) {
      rmSync(folder, { recursive: true, force: true });
      deleted.push(folder);
    } else if (complete) kept.push(folder);
  }
  return { deleted, kept };
}
