// Files the store tools leave for a later run to trust (a backup's files, its manifest, a restore's marker): synced,
// and a small one written aside and renamed, so that after a crash it is whole or absent.
import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Written aside (`.<name>.writing`, which no reader takes), synced, renamed over `path`, the rename synced. */
export async function writeWhole(path: string, text: string): Promise<void> {
  const aside = join(dirname(path), `.${basename(path)}.writing`);
  const handle = await open(aside, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(aside, path);
  await syncFile(dirname(path));
}
