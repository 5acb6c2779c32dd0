// A backup at rest, encrypted (BACKUP_ENCRYPTION_KEY): each file with AES-256-GCM under a key derived from the
// setting, its own random IV at the head and the tag at the end, so a changed byte or another key fails to open.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';

const MAGIC = Buffer.from('CHORUS-BACKUP-1\n');
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type BackupKey = { key: Buffer; keyId: string };

/** The same setting gives the same key, and `keyId` tells a wrong setting before anything is opened. */
export function backupKeyOf(setting: string): BackupKey {
  const key = Buffer.from(hkdfSync('sha256', setting, 'chorus-backup', 'file encryption', 32));
  const keyId = createHash('sha256').update(key).update('key id').digest('hex').slice(0, 16);
  return { key, keyId };
}

export async function encryptFile(source: string, target: string, { key }: BackupKey): Promise<void> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const output = createWriteStream(target, { mode: 0o600 });
  output.write(Buffer.concat([MAGIC, iv]));
  await pipeline(createReadStream(source), cipher, output, { end: false });
  await new Promise<void>((resolve, reject) => output.end(cipher.getAuthTag(), () => resolve()).once('error', reject));
}

/** Throws when the file was changed or the key is another: nothing of it is trusted until the tag checks. */
export async function decryptFile(source: string, target: string, { key }: BackupKey): Promise<void> {
  const handle = await open(source, 'r');
  let size: number;
  let iv: Buffer;
  let tag: Buffer;
  try {
    size = (await handle.stat()).size;
    const head = Buffer.alloc(MAGIC.length + IV_BYTES);
    await handle.read(head, 0, head.length, 0);
    if (!head.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error(`${source} is not an encrypted backup file`);
    iv = head.subarray(MAGIC.length);
    tag = Buffer.alloc(TAG_BYTES);
    await handle.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
  } finally {
    await handle.close();
  }
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  await pipeline(
    createReadStream(source, { start: MAGIC.length + IV_BYTES, end: size - TAG_BYTES - 1 }),
    decipher,
    createWriteStream(target, { mode: 0o600 }),
  );
}
