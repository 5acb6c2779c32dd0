import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from './event-store.port.js';
import { SqliteEventStore } from './sqlite-event-store.js';

export type OpenEventStoreOptions = {
  dataDir: string;
  connectionString?: string | undefined;
  databaseUrl?: string | undefined;
  /** EventStoreDB stamps its own. */
  now?: () => Date;
};

export async function openEventStore(options: OpenEventStoreOptions): Promise<EventStore> {
  const eventStoreDb = options.connectionString !== undefined && options.connectionString !== '';
  const postgres = options.databaseUrl !== undefined && options.databaseUrl !== '';
  // Two stores named: which one holds the log is not for the code to guess.
  if (eventStoreDb && postgres) throw new Error('Both DATABASE_URL and EVENTSTORE_CONNECTION_STRING are set: set one of them');
  if (postgres) {
    const { PostgresEventStore } = await import('./postgres-event-store.js');
    return PostgresEventStore.connect({ connectionString: options.databaseUrl as string, now: options.now });
  }
  if (eventStoreDb) {
    // Loaded only when used: the gRPC client is heavy and the embedded store does not need it.
    const { EventStoreDbEventStore } = await import('./eventstoredb-event-store.js');
    return EventStoreDbEventStore.connect(options.connectionString as string);
  }
  mkdirSync(options.dataDir, { recursive: true });
  return SqliteEventStore.open({ file: join(options.dataDir, 'events.sqlite'), now: options.now });
}
