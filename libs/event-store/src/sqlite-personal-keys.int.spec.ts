// The personal key store's contract on the embedded store's keys file (personal-keys.sqlite), its WAL included.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PERSONAL_KEYS_FILE, SqlitePersonalKeys } from './sqlite-personal-keys.js';
import { describePersonalKeysContract } from './testing/personal-keys.contract.js';

describePersonalKeysContract('The SQLite event store', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-personal-keys-'));
  const file = join(dataDir, PERSONAL_KEYS_FILE);
  return {
    open: () => Promise.resolve(SqlitePersonalKeys.open({ file })),
    storedBytes: () =>
      Promise.resolve(
        Buffer.concat(
          [file, `${file}-wal`, `${file}-shm`].filter((path) => existsSync(path)).map((path) => readFileSync(path)),
        ),
      ),
    dispose: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })),
  };
});
