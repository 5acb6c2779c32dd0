// Starts the real service for an e2e test: createApp on 127.0.0.1, port 0, a fresh temp DATA_DIR.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { loadConfig, type Config } from '#config';
import { EVENT_STORE, type EventStore } from '#event-store';
import { createApp } from '#api';

export type RunningApp = {
  app: NestExpressApplication;
  /** e.g. http://127.0.0.1:41234, no trailing slash. */
  baseUrl: string;
  config: Config;
  dataDir: string;
  /** The app's own event store, to check what was (not) recorded. */
  store: EventStore;
  /** Every JSON log line written so far, parsed. */
  logs: Record<string, unknown>[];
  /** Stops the app and deletes its DATA_DIR (unless the caller gave it). */
  close(): Promise<void>;
};

/**
 * `settings` are environment variables on top of the test defaults (NODE_ENV=test, SEED_DEMO=false).
 * Without a DATA_DIR among them the app gets a fresh temp one, deleted by close(); a given one is kept.
 */
export async function startApp(settings: Record<string, string> = {}): Promise<RunningApp> {
  const ownDataDir = settings.DATA_DIR === undefined;
  const dataDir = settings.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'chorus-e2e-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
    ...settings,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  const logs: Record<string, unknown>[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line.trim() !== '') logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app = await createApp(config, { logDestination });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    config,
    dataDir,
    store: app.get<EventStore>(EVENT_STORE),
    logs,
    close: async () => {
      await app.close();
      if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
