// A backup's manifest, written last: what it holds (the store, its head, its count, the version, the time) and a
// SHA-256 of every file. A folder without one was cut short, and nothing restores it.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { writeWhole } from './durable-files.js';
import { StoreRefusal } from './store-refusal.js';

export const MANIFEST = 'manifest.json';
export const BACKUP_FORMAT = 'chorus-backup/1';

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  storeKind: z.enum(['embedded', 'postgres']),
  storeId: z.string(),
  headPosition: z.string().regex(/^\d+$/).nullable(),
  eventCount: z.int().min(0),
  chorusVersion: z.string(),
  takenAt: z.iso.datetime(),
  /** The setting's key id when the files are encrypted. */
  encryption: z.object({ algorithm: z.literal('aes-256-gcm'), keyId: z.string() }).nullable(),
  files: z.record(z.string(), z.object({ bytes: z.int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** A backup that cannot be taken or restored as asked: nothing was changed (exit 1, the words naming why). */
export class BackupRefused extends StoreRefusal {
  constructor(message: string) {
    super(409, 'BACKUP_REFUSED', 'The backup cannot be used as asked', message);
  }
}

export async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file under `folder` but the manifest, by its path inside it. */
export function filesIn(folder: string): string[] {
  const found: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(folder, path));
    }
  };
  walk(folder);
  return found.filter((file) => file !== MANIFEST).sort();
}

/** Written to a temporary name and renamed, both synced: a manifest is whole or absent. */
export async function writeManifest(folder: string, manifest: Omit<Manifest, 'files'>): Promise<Manifest> {
  const files: Manifest['files'] = {};
  for (const file of filesIn(folder)) {
    const path = join(folder, file);
    files[file] = { bytes: statSync(path).size, sha256: await sha256Of(path) };
  }
  const whole: Manifest = { ...manifest, files };
  await writeWhole(join(folder, MANIFEST), `${JSON.stringify(whole, null, 2)}\n`);
  return whole;
}

/**
 * The manifest once every file it names is there and unchanged, byte for byte, and no other file is: checked before
 * anything is written. Refused, naming the file, otherwise.
 */
export async function verifiedManifest(folder: string): Promise<Manifest> {
  const path = join(folder, MANIFEST);
  if (!existsSync(path))
    throw new BackupRefused(`${folder} has no ${MANIFEST}: the backup was cut short, and nothing restores it`);
  const parsed = manifestSchema.safeParse(JSON.parse(await readFile(path, 'utf8')));
  if (!parsed.success) throw new BackupRefused(`${path} is not a Chorus backup manifest: ${parsed.error.message}`);
  const manifest = parsed.data;
  const present = filesIn(folder).filter((file) => !file.startsWith('.'));
  for (const file of present)
    if (manifest.files[file] === undefined) throw new BackupRefused(`${file} is not part of the backup in ${folder}`);
  for (const [file, expected] of Object.entries(manifest.files)) {
    const filePath = join(folder, file);
    if (!existsSync(filePath)) throw new BackupRefused(`${file} is missing from the backup in ${folder}`);
    if (statSync(filePath).size !== expected.bytes || (await sha256Of(filePath)) !== expected.sha256)
      throw new BackupRefused(`${file} was changed since the backup was taken (its SHA-256 does not match)`);
  }
  return manifest;
}
