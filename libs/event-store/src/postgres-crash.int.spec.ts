// The crash suite (testing/crash-suite.ts) against the PostgreSQL adapter: a fresh database per run in a
// throw-away cluster, else skipped with one line saying why. The writer dies, the server does not: what
// the adapter acknowledged was committed, and what it had not is rolled back with the dead connection.
import { afterAll } from '@jest/globals';
import { openEventStore } from './open-event-store.js';
import { describeCrashSuite } from './testing/crash-suite.js';
import { startPostgresServer, type PostgresServer } from './testing/postgres-server.js';

const started = await startPostgresServer();
const server: PostgresServer | undefined = 'server' in started ? started.server : undefined;
if ('skip' in started) process.stdout.write(`PostgreSQL crash suite SKIPPED: ${started.skip}.\n`);

afterAll(async () => {
  await server?.stop();
});

let runs = 0;
describeCrashSuite(
  'The PostgreSQL event store',
  async () => {
    runs += 1;
    const databaseUrl = await (server as PostgresServer).createDatabase(`chorus_crash_${process.pid}_${runs}`);
    return {
      writerArgs: ['/nonexistent', databaseUrl],
      open: () => openEventStore({ dataDir: '/nonexistent', databaseUrl }),
      dispose: async () => undefined,
    };
  },
  'skip' in started ? { skip: started.skip } : {},
);
