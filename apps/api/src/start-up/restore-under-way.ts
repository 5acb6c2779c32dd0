// A store still being restored is served by no one: `chorus store:restore` marks the store before it writes and
// clears the mark once the read models are verified; a restore cut short is finished by running it again. The mark
// is where the store is: a file in DATA_DIR for the embedded store, a row in the database for PostgreSQL, which every
// node shares (postgres-restore-mark.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { postgresRestoreMark } from '#event-store';

export const RESTORE_MARKER = 'restore-in-progress.json';

/** The store a restore writes into: its DATA_DIR, or the PostgreSQL database named instead of the embedded store. */
export type RestorePlace = { dataDir: string; databaseUrl?: string | undefined };

export const postgresOf = (place: RestorePlace): string | undefined =>
  place.databaseUrl === undefined || place.databaseUrl === '' ? undefined : place.databaseUrl;

/** The words to refuse a start with, or undefined when no restore is under way in the store. */
export async function restoreUnderWay(place: RestorePlace): Promise<string | undefined> {
  const databaseUrl = postgresOf(place);
  if (databaseUrl !== undefined)
    return (await postgresRestoreMark(databaseUrl)) === undefined
      ? undefined
      : 'this PostgreSQL database: a restore into it has not finished; run the same `chorus store:restore` again, from any node, to finish it (docs/operations.md), then start the servers';
  const marker = join(place.dataDir, RESTORE_MARKER);
  if (!existsSync(marker)) return undefined;
  return `${marker}: a restore into this store has not finished; run the same \`chorus store:restore\` again to finish it (docs/operations.md), then start the server`;
}
