import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { UpcastingEventStore } from '#application';
import { CONFIG, type Config } from '#config';
import { eventSchemas } from '#domain';
import { EVENT_STORE, openEventStore, type EventStore } from '#event-store';
import { ChorusMetrics } from '../metrics/chorus-metrics.js';
import { TimedEventStore } from '../metrics/instrumentation.js';

/** Closes the store in the last shutdown phase, after every module has stopped reading it in onModuleDestroy. */
@Injectable()
class EventStoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/**
 * EVENT_STORE: the embedded SQLite store under DATA_DIR, or PostgreSQL (DATABASE_URL), or EventStoreDB (EVENTSTORE_CONNECTION_STRING);
 * every event read in its current shape (upcast), its appends timed.
 */
@Global()
@Module({
  providers: [
    {
      provide: EVENT_STORE,
      inject: [CONFIG, ChorusMetrics],
      useFactory: async (config: Config, metrics: ChorusMetrics): Promise<EventStore> => {
        const { dataDir, eventStoreConnectionString: connectionString, databaseUrl } = config;
        const store = await openEventStore({ dataDir, connectionString, databaseUrl });
        return new TimedEventStore(new UpcastingEventStore(store, eventSchemas), metrics, databaseUrl !== undefined ? 'postgres' : connectionString !== undefined ? 'eventstoredb' : 'sqlite');
      },
    },
    EventStoreLifecycle,
  ],
  exports: [EVENT_STORE],
})
export class EventStoreModule {}
