import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from './event-store.port.js';
import type { EventStoreDbCopies } from './eventstoredb-copies.js';
import type { LogRewriter } from './log-rewrite.port.js';
import type { PersonalKeyStore } from './personal-keys.port.js';
import { SqliteEventStore } from './sqlite-event-store.js';
import { PERSONAL_KEYS_FILE } from './sqlite-personal-keys.js';

export type OpenEventStoreOptions = {
  dataDir: string;
  connectionString?: string | undefined;
  databaseUrl?: string | undefined;
  /** EventStoreDB stamps its own. */
  now?: () => Date;
  /** Opened to import into (store:copy, store:restore): the store then opens with an import of its own unfinished. */
  importing?: boolean;
};

export async function openEventStore(options: OpenEventStoreOptions): Promise<EventStore> {
  const eventStoreDb = options.connectionString !== undefined && options.connectionString !== '';
  const postgres = options.databaseUrl !== undefined && options.databaseUrl !== '';
  // Two stores named: which one holds the log is not for the code to guess.
  if (eventStoreDb && postgres)
    throw new Error('Both DATABASE_URL and EVENTSTORE_CONNECTION_STRING are set: set one of them');
  if (postgres) {
    const { PostgresEventStore } = await import('./postgres-event-store.js');
    return PostgresEventStore.connect({
      connectionString: options.databaseUrl as string,
      now: options.now,
      importing: options.importing,
    });
  }
  if (eventStoreDb) {
    // Loaded only when used: the gRPC client is heavy and the embedded store does not need it.
    const { EventStoreDbEventStore } = await import('./eventstoredb-event-store.js');
    return EventStoreDbEventStore.connect(options.connectionString as string);
  }
  mkdirSync(options.dataDir, { recursive: true });
  return SqliteEventStore.open({
    file: join(options.dataDir, 'events.sqlite'),
    now: options.now,
    importing: options.importing,
  });
}

/** The key store beside the log openEventStore opens with the same options: its table, or its streams. */
export async function openPersonalKeys(options: OpenEventStoreOptions): Promise<PersonalKeyStore> {
  if (options.databaseUrl !== undefined && options.databaseUrl !== '') {
    const { PostgresPersonalKeys } = await import('./postgres-personal-keys.js');
    return PostgresPersonalKeys.connect({ connectionString: options.databaseUrl });
  }
  if (options.connectionString !== undefined && options.connectionString !== '') {
    const { EventStoreDbPersonalKeys } = await import('./eventstoredb-personal-keys.js');
    return EventStoreDbPersonalKeys.connect(options.connectionString);
  }
  mkdirSync(options.dataDir, { recursive: true });
  const { SqlitePersonalKeys } = await import('./sqlite-personal-keys.js');
  return SqlitePersonalKeys.open({ file: join(options.dataDir, PERSONAL_KEYS_FILE), now: options.now });
}

/**
 * The rewriter of the log openEventStore opens with the same options; EventStoreDB's events cannot be rewritten in
 * place.
 */
export async function openLogRewriter(options: OpenEventStoreOptions): Promise<LogRewriter> {
  if (options.databaseUrl !== undefined && options.databaseUrl !== '') {
    const { PostgresLogRewriter } = await import('./postgres-log-rewrite.js');
    return PostgresLogRewriter.connect(options.databaseUrl);
  }
  if (options.connectionString !== undefined && options.connectionString !== '') {
    throw new Error(
      'EventStoreDB keeps every event as written: a store there is sealed by copying it into a new one (docs/privacy.md)',
    );
  }
  mkdirSync(options.dataDir, { recursive: true });
  const { SqliteLogRewriter } = await import('./sqlite-log-rewrite.js');
  return SqliteLogRewriter.open(join(options.dataDir, 'events.sqlite'));
}

/** EventStoreDB's log as a copy reads and writes it, beside `store`, the adapter opened on the same database. */
export async function openEventStoreDbCopies(connectionString: string, store: EventStore): Promise<EventStoreDbCopies> {
  // Loaded only when used, as the adapter is.
  const { EventStoreDbCopies: Copies } = await import('./eventstoredb-copies.js');
  return Copies.connect(connectionString, store);
}
