import { Global, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, type Config } from '#config';
import { EVENT_STORE, openEventStore, type EventStore } from '#event-store';

/** Closes the store in the last shutdown phase, after every module has stopped reading it in onModuleDestroy. */
@Injectable()
class EventStoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

/** EVENT_STORE: the embedded SQLite store under DATA_DIR, or EventStoreDB when a connection string is set. */
@Global()
@Module({
  providers: [
    {
      provide: EVENT_STORE,
      inject: [CONFIG],
      useFactory: (config: Config): Promise<EventStore> =>
        openEventStore({ dataDir: config.dataDir, connectionString: config.eventStoreConnectionString }),
    },
    EventStoreLifecycle,
  ],
  exports: [EVENT_STORE],
})
export class EventStoreModule {}
