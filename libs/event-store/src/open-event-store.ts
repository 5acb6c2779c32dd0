import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from './event-store.port.js';
import { SqliteEventStore } from './sqlite-event-store.js';

export type OpenEventStoreOptions = {
  /** DATA_DIR: the embedded store keeps `events.sqlite` here (created when missing). */
  dataDir: string;
  /** EVENTSTORE_CONNECTION_STRING: when set, EventStoreDB is used instead of the embedded store. */
  connectionString?: string | undefined;
  /** DATABASE_URL: when set (postgres://...), PostgreSQL is used instead of the embedded store. */
  databaseUrl?: string | undefined;
  /** Stamps recordedAt in the embedded store (tests inject a clock); EventStoreDB stamps its own. */
  now?: () => Date;
};

/** The configured event store: EventStoreDB or PostgreSQL when a connection string is given, else SQLite under dataDir. */
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
