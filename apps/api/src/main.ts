import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import dotenv from 'dotenv';
import { ConfigError, loadConfig, type Config } from '#config';
import { createApp } from './create-app.js';
import { HistoryKeyError, UnfinishedImport } from '#event-store';
import { startTracing } from './metrics/tracing-sdk.js';
import { listenFailure, listenProblem } from './start-up/listen-failure.js';
import { restoreUnderWay } from './start-up/restore-under-way.js';
import { startUpBanner } from './start-up/start-up-banner.js';

dotenv.config({ quiet: true });

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const restoring = await restoreUnderWay(config);
if (restoring !== undefined) {
  console.error(restoring);
  process.exit(1);
}

const portProblem = await listenProblem(config);
if (portProblem !== undefined) {
  console.error(portProblem);
  process.exit(1);
}

// The one place the OpenTelemetry SDK starts, before anything makes a span; only when an OTLP endpoint is set.
const tracing = await startTracing(config.tracing);

let app: Awaited<ReturnType<typeof createApp>>;
try {
  app = await createApp(config);
} catch (error) {
  // A setting or a store the server cannot start with, found once the store is open: said in words, not as a stack.
  if (!(error instanceof HistoryKeyError || error instanceof UnfinishedImport)) throw error;
  console.error(error.message);
  await tracing?.shutdown();
  process.exit(1);
}
try {
  await app.listen(config.port, config.host);
} catch (error) {
  const problem = listenFailure(error, config);
  if (problem === undefined) throw error;
  console.error(problem);
  await app.close();
  await tracing?.shutdown();
  process.exit(1);
}
if (config.backupDir === undefined)
  new Logger('Backups').warn(
    'BACKUP_DIR is not set: erasures are not recorded beside the backups, so a restored backup would bring back the people erased after it (docs/operations.md)',
  );
// Last, after every start-up line: where Chorus runs and how to sign in.
console.log(await startUpBanner(app, config));

// Finish the requests in flight, stop background work, then close the event store (onApplicationShutdown).
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    // The spans of the last requests are sent before the process ends.
    app
      .close()
      .then(() => tracing?.shutdown())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
  });
}
