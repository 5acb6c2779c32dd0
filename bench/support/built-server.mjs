// The built server (`dist/apps/api/src/main.js`) as its own process for the benches: a free port (free-port.mjs),
// and the environment it starts with (embedded SQLite store in `dataDir`, projections inline, no demo data).
export { freePort } from './free-port.mjs';

export const builtServerEnvironment = (dataDir, port) => ({
  ...process.env,
  NODE_ENV: 'development',
  DATA_DIR: dataDir,
  HOST: '127.0.0.1',
  PORT: String(port),
  SEED_DEMO: 'false',
  LOG_LEVEL: 'warn',
  EVENTSTORE_CONNECTION_STRING: '',
});
