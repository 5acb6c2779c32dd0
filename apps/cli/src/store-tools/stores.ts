// The stores a backup, a restore or a copy reads and writes, opened as they store: below the sealing and upcasting
// every server reads through, so personal data stays sealed and every event stays exactly as stored.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { storeLocationOf, type Config } from '#config';
import {
  asCopied,
  openEventStore,
  openEventStoreDbCopies,
  openPersonalKeys,
  PERSONAL_KEYS_FILE,
  type EventStore,
  type ExactLog,
  type OpenEventStoreOptions,
  type PersonalKeyStore,
  type StoredEvent,
} from '#event-store';
import { invalidInput } from './store-refusal.js';

export type StoreKind = 'embedded' | 'postgres' | 'eventstoredb';

export type OpenedStore = {
  kind: StoreKind;
  /** How the store is named to the operator: the file, or the database without its password. */
  name: string;
  events: EventStore;
  /** The embedded store and PostgreSQL: events copied at their own positions and times. */
  exact: ExactLog | undefined;
  /**
   * The log as a copy reads and writes it: `exact`, or EventStoreDB's, whose positions are its own and whose copied
   * events note where their source had them (docs/operations.md).
   */
  copyLog: ExactLog;
  /**
   * An event of `copyLog` as the log's history holds it: EventStoreDB's copied events at the position and time their
   * copy noted, their metadata without the note; every other event as it is.
   */
  view(event: StoredEvent): StoredEvent;
  /** This log's own event that is `event` (as viewed), where it holds one: to go on from it. */
  counterpart(event: StoredEvent): Promise<StoredEvent | undefined>;
  /** The log's last event, viewed. */
  lastCopied(): Promise<StoredEvent | undefined>;
  keys: PersonalKeyStore;
  /** The embedded store's folder. */
  dataDir: string | undefined;
  close(): Promise<void>;
};

/** Where a store is: a DATA_DIR, and the PostgreSQL or EventStoreDB it names instead of the embedded store. */
export type StoreLocation = Omit<OpenEventStoreOptions, 'now'>;

const exactOf = (store: EventStore): ExactLog | undefined =>
  'exportEvents' in store ? (store as EventStore & ExactLog) : undefined;

type CopySide = Pick<OpenedStore, 'copyLog' | 'view' | 'counterpart' | 'lastCopied'> & { close(): Promise<void> };

/** A log that keeps every position: the event at one is the first after the one before. */
function exactSide(events: EventStore, log: ExactLog): CopySide {
  const eventAt = async (position: bigint) => {
    const [event] = await log.exportEvents(position - 1n, 1);
    return event?.position === position ? event : undefined;
  };
  return {
    copyLog: log,
    view: (event) => event,
    counterpart: (event) => eventAt(event.position),
    lastCopied: async () => {
      const head = await events.headPosition();
      return head === undefined ? undefined : eventAt(head);
    },
    close: () => Promise.resolve(),
  };
}

async function eventStoreDbSide(events: EventStore, connectionString: string): Promise<CopySide> {
  const log = await openEventStoreDbCopies(connectionString, events);
  return {
    copyLog: log,
    view: asCopied,
    // Its positions are not its source's: the same event is the one at the same revision of the same stream.
    counterpart: async (event) => {
      const read = await events.readStream(event.streamId, { fromRevision: event.revision, maxCount: 1 });
      const own = read.found ? read.events[0] : undefined;
      return own?.id === event.id ? log.eventAt(own.position) : undefined;
    },
    lastCopied: async () => {
      const last = await log.lastEvent();
      return last === undefined ? undefined : asCopied(last);
    },
    close: () => log.close(),
  };
}

/** A URL's host, port and database, without its credentials. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return 'the configured database';
  }
}

export async function openStore(location: StoreLocation): Promise<OpenedStore> {
  const kind: StoreKind =
    location.databaseUrl !== undefined
      ? 'postgres'
      : location.connectionString !== undefined
        ? 'eventstoredb'
        : 'embedded';
  const events = await openEventStore(location);
  let keys: PersonalKeyStore;
  let side: CopySide;
  try {
    const exact = exactOf(events);
    side =
      exact !== undefined
        ? exactSide(events, exact)
        : await eventStoreDbSide(events, location.connectionString as string);
    keys = await openPersonalKeys(location);
  } catch (error) {
    await events.close();
    throw error;
  }
  const name =
    kind === 'postgres'
      ? `PostgreSQL at ${withoutCredentials(location.databaseUrl as string)}`
      : kind === 'eventstoredb'
        ? `EventStoreDB at ${withoutCredentials((location.connectionString as string).replace(/^esdb\+discover:/, 'esdb:'))}`
        : `the embedded store in ${join(location.dataDir, 'events.sqlite')}`;
  return {
    kind,
    name,
    events,
    exact: exactOf(events),
    copyLog: side.copyLog,
    view: side.view,
    counterpart: side.counterpart,
    lastCopied: side.lastCopied,
    keys,
    dataDir: kind === 'embedded' ? location.dataDir : undefined,
    close: async () => {
      await side.close();
      await events.close();
      await keys.close();
    },
  };
}

/**
 * The store the configuration names: the one a restore or a copy writes into (`importing`: it then opens with an import of
 * its own unfinished, which it goes on with).
 */
export function openConfiguredStore(
  config: Config,
  { importing = false }: { importing?: boolean } = {},
): Promise<OpenedStore> {
  return openStore({ ...storeLocationOf(config), importing });
}

/** A store named on the command line: a `postgres://` URL, an `esdb://` connection string, or a DATA_DIR path. */
export function openStoreAt(source: string, { create = false }: { create?: boolean } = {}): Promise<OpenedStore> {
  if (/^postgres(ql)?:\/\//.test(source)) return openStore({ dataDir: '.', databaseUrl: source });
  if (/^esdb(\+discover)?:\/\//.test(source)) return openStore({ dataDir: '.', connectionString: source });
  if (create) return openStore({ dataDir: source });
  if (!existsSync(join(source, 'events.sqlite')))
    throw invalidInput(
      `${source} holds no embedded store (no events.sqlite): name a DATA_DIR, a postgres:// URL or an esdb:// connection string`,
    );
  if (!existsSync(join(source, PERSONAL_KEYS_FILE)))
    throw invalidInput(
      `${source} holds no ${PERSONAL_KEYS_FILE}: without its keys the log reads as if everyone were erased`,
    );
  return openStore({ dataDir: source });
}
