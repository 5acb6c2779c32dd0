// The crash suite (testing/crash-suite.ts) against the SQLite adapter: a file under a fresh DATA_DIR per run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEventStore } from './open-event-store.js';
import { describeCrashSuite } from './testing/crash-suite.js';

describeCrashSuite('The SQLite event store', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-crash-'));
  return {
    writerArgs: [dataDir],
    open: () => openEventStore({ dataDir }),
    dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
});
