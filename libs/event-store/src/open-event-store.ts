import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from './event-store.port.js';
import { SqliteEventStore } from './sqlite-event-store.js';

export type OpenEventStoreOptions = {
  /** DATA_DIR: the embedded store keeps `events.sqlite` here (created when missing). */
  dataDir: string;
  /** EVENTSTORE_CONNECTION_STRING: when set, EventStoreDB is used instead of the embedded store. */
  connectionString?: string | undefined;
  /** Stamps recordedAt in the embedded store (tests inject a clock); EventStoreDB stamps its own. */
  now?: () => Date;
};

/** The configured event store: EventStoreDB when a connection string is given, else SQLite under dataDir. */
export async function openEventStore(options: OpenEventStoreOptions): Promise<EventStore> {
  if (options.connectionString !== undefined && options.connectionString !== '') {
    // Loaded only when used: the gRPC client is heavy and the embedded store does not need it.
    const { EventStoreDbEventStore } = await import('./eventstoredb-event-store.js');
    return EventStoreDbEventStore.connect(options.connectionString);
  }
  mkdirSync(options.dataDir, { recursive: true });
  return SqliteEventStore.open({ file: join(options.dataDir, 'events.sqlite'), now: options.now });
}
