import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { PersonalKeys, servedEventStore } from '#application';
import { CONFIG, storeLocationOf, type Config } from '#config';
import {
  CHAINED_LOG,
  EVENT_STORE,
  openEventStore,
  openPersonalKeys,
  PERSONAL_KEYS,
  type ChainedLog,
  type EventStore,
} from '#event-store';
import { AppClock } from '../config/app-clock.js';
import { RequestWritesEventStore } from '../http/request-writes.js';
import { ChorusMetrics } from '../metrics/chorus-metrics.js';
import { TimedEventStore } from '../metrics/instrumentation.js';

/** Closes the store in the last shutdown phase, after every module has stopped reading it in onModuleDestroy. */
@Injectable()
class EventStoreLifecycle implements OnApplicationShutdown {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PERSONAL_KEYS) private readonly keys: PersonalKeys,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
    await this.keys.close();
  }
}

/** The store as opened, under every wrapper: only the chain is read from it directly (CHAINED_LOG). */
const OPENED_STORE = Symbol('OPENED_STORE');

/**
 * EVENT_STORE: the embedded SQLite store under DATA_DIR, or PostgreSQL (DATABASE_URL), or EventStoreDB
 * (EVENTSTORE_CONNECTION_STRING);
 * personal data sealed on the way in and opened on the way out, every event read in its current shape (upcast), its
 * appends' positions noted in their request's context, and timed. CHAINED_LOG: the same store's chain, exactly as
 * stored (null where the store keeps none: docs/history.md).
 */
@Global()
@Module({
  providers: [
    {
      provide: PERSONAL_KEYS,
      inject: [CONFIG, AppClock],
      useFactory: async (config: Config, clock: AppClock): Promise<PersonalKeys> => {
        return new PersonalKeys(await openPersonalKeys(storeLocationOf(config)), () => clock.now().getTime());
      },
    },
    {
      provide: OPENED_STORE,
      // After the personal keys, one store driver loaded at a time: two dynamic imports of `pg` at once fail to link
      // under jest's ESM loader (ERR_VM_MODULE_LINK_FAILURE), which the e2e suites run the server in.
      inject: [CONFIG, PERSONAL_KEYS],
      useFactory: (config: Config): Promise<EventStore> => {
        return openEventStore(storeLocationOf(config));
      },
    },
    {
      provide: CHAINED_LOG,
      inject: [OPENED_STORE],
      useFactory: (store: EventStore): ChainedLog | null =>
        'readChain' in store ? (store as EventStore & ChainedLog) : null,
    },
    {
      provide: EVENT_STORE,
      inject: [CONFIG, ChorusMetrics, PERSONAL_KEYS, AppClock, OPENED_STORE],
      useFactory: (
        config: Config,
        metrics: ChorusMetrics,
        keys: PersonalKeys,
        clock: AppClock,
        store: EventStore,
      ): EventStore => {
        const { eventStoreConnectionString: connectionString, databaseUrl } = config;
        return new TimedEventStore(
          new RequestWritesEventStore(servedEventStore(store, keys, () => clock.now())),
          metrics,
          databaseUrl !== undefined ? 'postgres' : connectionString !== undefined ? 'eventstoredb' : 'sqlite',
        );
      },
    },
    EventStoreLifecycle,
  ],
  exports: [EVENT_STORE, PERSONAL_KEYS, CHAINED_LOG],
})
export class EventStoreModule {}
