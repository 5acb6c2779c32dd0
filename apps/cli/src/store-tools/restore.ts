// `chorus store:restore`: a backup checked whole before anything is written, copied exactly into the configured
// store (which must be empty), up to a position or a time if asked; then the people erased since are erased again,
// and the read models are rebuilt and verified, all before any server serves the store.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { copyFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { postgresOf, RESTORE_MARKER } from '#api';
import type { Config } from '#config';
import { identifierClaimDecider, PERSON_SUBJECT_PREFIX, type IdentifierReleased } from '#domain';
import type { HeldClaim } from '#identity';
import {
  clearPostgresRestoreMark,
  markPostgresRestore,
  PERSONAL_KEYS_FILE,
  postgresRestoreMark,
  type StoredEvent,
} from '#event-store';
import { backupKeyOf, decryptFile } from './backup-crypto.js';
import { BackupRefused, verifiedManifest, type Manifest } from './backup-manifest.js';
import { EVENTS_FILE, SECRETS_FOLDER, SESSION_SECRET_FILE } from './backup.js';
import { copyLog, type CopyLimit, type CopyResult } from './copy-log.js';
import { writeWhole } from './durable-files.js';
import { openConfiguredStore, openStoreAt, type OpenedStore } from './stores.js';

/** The backup's files in the clear while a restore reads them. */
const RESTORE_WORK = '.restore-work';

export type RestorePoint = { toPosition?: bigint; asOf?: string };

export type RestoredLog = {
  manifest: Manifest;
  copy: CopyResult;
  storeName: string;
  sessionSecret: boolean;
  /** The people whose key the restored store holds erased: their erasure may lie beyond the point restored to. */
  erasedPeople: string[];
  /** The claims freed beyond the point restored to, by the person who held them: for an erasure done again. */
  releasedBeyond: Map<string, HeldClaim[]>;
};

/** The backup's files in the clear, in a private folder, once the key (if any) is the one it was taken with. */
async function openedFiles(from: string, manifest: Manifest, config: Config): Promise<string> {
  const key = config.backupEncryptionKey === undefined ? undefined : backupKeyOf(config.backupEncryptionKey);
  if (manifest.encryption !== null) {
    if (key === undefined)
      throw new BackupRefused(
        `${from} is encrypted: set BACKUP_ENCRYPTION_KEY to the value it was taken with, then restore again`,
      );
    if (key.keyId !== manifest.encryption.keyId)
      throw new BackupRefused(
        `${from} was encrypted with another BACKUP_ENCRYPTION_KEY than the one set: set the one it was taken with`,
      );
  }
  // In DATA_DIR, beside the store it becomes, at one path: a restore cut short leaves it there, and its rerun
  // replaces it.
  const work = join(config.dataDir, RESTORE_WORK);
  await rm(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true, mode: 0o700 });
  for (const file of Object.keys(manifest.files)) {
    const plain = manifest.encryption === null ? file : file.replace(/\.enc$/, '');
    mkdirSync(dirname(join(work, plain)), { recursive: true, mode: 0o700 });
    if (manifest.encryption === null) await copyFile(join(from, file), join(work, plain));
    else await decryptFile(join(from, file), join(work, plain), key as NonNullable<typeof key>);
  }
  for (const needed of [EVENTS_FILE, PERSONAL_KEYS_FILE])
    if (!existsSync(join(work, needed))) throw new BackupRefused(`${from} holds no ${needed}`);
  return work;
}

/** Refused, naming the store, unless it holds no event, no key and no deleted stream. */
async function refuseUnlessEmpty(target: OpenedStore): Promise<void> {
  const head = await target.events.headPosition();
  const keys = await target.keys.exportKeys(undefined, 1);
  const deleted = (await target.exact?.deletedStreams()) ?? [];
  if (head !== undefined || keys.length > 0 || deleted.length > 0)
    throw new BackupRefused(
      `${target.name} is not empty (${head !== undefined ? `its log reaches position ${head}` : 'it holds personal-data keys'}): a backup is restored only into an empty store, and nothing was changed`,
    );
}

/** The generated session secret goes where the server looks for it, unless one is set or another is there. */
function secretToWrite(work: string, config: Config): string | undefined {
  const kept = join(work, SECRETS_FOLDER, SESSION_SECRET_FILE);
  if (config.sessionSecret !== undefined || !existsSync(kept)) return undefined;
  const secret = readFileSync(kept, 'utf8');
  const present = join(config.dataDir, SESSION_SECRET_FILE);
  if (existsSync(present) && readFileSync(present, 'utf8') !== secret)
    throw new BackupRefused(
      `${present} holds another session secret than the backup's: move it away (sessions signed with it end) and restore again`,
    );
  return existsSync(present) ? undefined : secret;
}

// The marker is written into the store (restore-under-way.ts: DATA_DIR's RESTORE_MARKER, or PostgreSQL's own row)
// before a restore writes anything and cleared once it has verified the read models: a restore cut short (kill -9) is
// taken up by the same command with the same backup and point, from any node on PostgreSQL; no server starts on a
// store still being restored, and any other restore is refused.
type Marker = { storeId: string; takenAt: string; lastPosition: string; asOf: string | null; copied?: boolean };

/** The same backup and point, field by field: PostgreSQL's jsonb keeps the fields in an order of its own. */
const sameRestore = (one: Partial<Marker>, other: Marker): boolean =>
  one.storeId === other.storeId &&
  one.takenAt === other.takenAt &&
  one.lastPosition === other.lastPosition &&
  one.asOf === other.asOf;

async function markerOf(config: Config): Promise<Marker | undefined> {
  const databaseUrl = postgresOf(config);
  try {
    const text =
      databaseUrl === undefined
        ? readFileSync(join(config.dataDir, RESTORE_MARKER), 'utf8')
        : await postgresRestoreMark(databaseUrl);
    return text === undefined ? undefined : (JSON.parse(text) as Marker);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function writeMarker(config: Config, marker: Marker): Promise<void> {
  const databaseUrl = postgresOf(config);
  if (databaseUrl !== undefined) return markPostgresRestore(databaseUrl, JSON.stringify(marker));
  return writeWhole(join(config.dataDir, RESTORE_MARKER), `${JSON.stringify(marker)}\n`);
}

export async function endRestore(config: Config): Promise<void> {
  const databaseUrl = postgresOf(config);
  if (databaseUrl !== undefined) return clearPostgresRestoreMark(databaseUrl);
  await rm(join(config.dataDir, RESTORE_MARKER), { force: true });
}

async function alreadyCopied(target: OpenedStore): Promise<CopyResult> {
  const events = (await target.exact?.countEvents()) ?? 0;
  return { alreadyThere: events, copied: 0, keys: 0, erasures: 0, headPosition: await target.events.headPosition() };
}

/** The user ids of the people whose key is held erased. */
async function erasedPeopleIn(store: OpenedStore): Promise<string[]> {
  const people: string[] = [];
  for (let after: string | undefined; ;) {
    const page = await store.keys.exportKeys(after, 1_000);
    if (page.length === 0) return people;
    for (const record of page)
      if (record.key === null && record.subject.startsWith(PERSON_SUBJECT_PREFIX))
        people.push(record.subject.slice(PERSON_SUBJECT_PREFIX.length));
    after = page.at(-1)?.subject;
  }
}

/** The identifiers freed (IdentifierReleased) in the backup's log after `after`, by their holder. */
async function releasedAfter(source: OpenedStore, after: bigint | undefined): Promise<Map<string, HeldClaim[]>> {
  const released = new Map<string, HeldClaim[]>();
  const prefix = identifierClaimDecider.streamOf('');
  const log = source.exact;
  if (log === undefined) return released;
  for (let position = after ?? 0n; ;) {
    const page = await log.exportEvents(position, 10_000);
    if (page.length === 0) return released;
    for (const event of page) {
      if (event.type !== 'IdentifierReleased' || !event.streamId.startsWith(prefix)) continue;
      const { kind, userId } = JSON.parse(event.data) as IdentifierReleased['data'];
      released.set(userId, [...(released.get(userId) ?? []), { kind, id: event.streamId.slice(prefix.length) }]);
    }
    position = (page.at(-1) as StoredEvent).position;
  }
}

/** Checks the backup and the target, then copies the log and the keys; nothing is written before both pass. */
export async function restoreLog(config: Config, from: string, point: RestorePoint): Promise<RestoredLog> {
  const manifest = await verifiedManifest(from);
  const work = await openedFiles(from, manifest, config);
  try {
    const target = await openConfiguredStore(config, { importing: true });
    try {
      if (target.kind === 'eventstoredb')
        throw new BackupRefused(
          `${target.name} gives every event its own position and time, and a restore keeps them: restore into the embedded store or PostgreSQL, then \`chorus store:copy\` from there into EventStoreDB`,
        );
      const head = manifest.headPosition === null ? 0n : BigInt(manifest.headPosition);
      const last = point.toPosition !== undefined && point.toPosition < head ? point.toPosition : head;
      const marker: Marker = {
        storeId: manifest.storeId,
        takenAt: manifest.takenAt,
        lastPosition: last.toString(),
        asOf: point.asOf ?? null,
      };
      const { copied = false, ...earlier } = (await markerOf(config)) ?? {};
      if (Object.keys(earlier).length === 0) await refuseUnlessEmpty(target);
      else if (!sameRestore(earlier, marker))
        throw new BackupRefused(
          `${target.name} holds a restore of another backup or to another point, cut short: restore into an empty store`,
        );
      const secret = secretToWrite(work, config);
      mkdirSync(config.dataDir, { recursive: true });
      await writeMarker(config, { ...marker, copied });
      const source = await openStoreAt(work);
      let copy: CopyResult;
      let releasedBeyond: Map<string, HeldClaim[]>;
      try {
        // Copied before the cut: what follows may have appended (erasures done again), so the copy is not redone.
        const limit: CopyLimit = { lastPosition: last, ...(point.asOf === undefined ? {} : { asOf: point.asOf }) };
        copy = copied ? await alreadyCopied(target) : await copyLog(source, target, limit);
        releasedBeyond = await releasedAfter(source, copy.headPosition);
      } finally {
        await source.close();
      }
      await writeMarker(config, { ...marker, copied: true });
      if (secret !== undefined) {
        await writeFile(join(config.dataDir, SESSION_SECRET_FILE), secret, { mode: 0o600, flag: 'wx' });
      }
      return {
        manifest,
        copy,
        storeName: target.name,
        sessionSecret: secret !== undefined,
        erasedPeople: await erasedPeopleIn(target),
        releasedBeyond,
      };
    } finally {
      await target.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The folders whose erasure records a restore from `from` honours: the backup's own folder, and BACKUP_DIR. */
export function erasureFolders(from: string, config: Config): string[] {
  const folders = [dirname(from.replace(/\/+$/, ''))];
  if (config.backupDir !== undefined && !folders.includes(config.backupDir)) folders.push(config.backupDir);
  return folders;
}
