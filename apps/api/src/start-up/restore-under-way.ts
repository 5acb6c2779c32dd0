// A store still being restored is served by no one: `chorus store:restore` marks DATA_DIR before it writes and
// clears the mark once the read models are verified; a restore cut short is finished by running it again.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const RESTORE_MARKER = 'restore-in-progress.json';

/** The words to refuse a start with, or undefined when no restore is under way in `dataDir`. */
export function restoreUnderWay(dataDir: string): string | undefined {
  const marker = join(dataDir, RESTORE_MARKER);
  if (!existsSync(marker)) return undefined;
  return `${marker}: a restore into this store has not finished; run the same \`chorus store:restore\` again to finish it (docs/operations.md), then start the server`;
}
