import 'reflect-metadata';
import dotenv from 'dotenv';
import { ConfigError, loadConfig, type Config } from '#config';
import { createApp } from './create-app.js';

dotenv.config({ quiet: true });

let config: Config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}

const app = await createApp(config);
await app.listen(config.port, config.host);
console.log(`Chorus is running at ${config.publicUrl}`);

// Finish the requests in flight, stop background work, then close the event store (onApplicationShutdown).
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
