import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { CONFIG, type Config } from '#config';
import { CorrelationQueries } from '#read-models';

/** Nest injection token for the correlation index's queries (DATA_DIR/read-models.sqlite). */
export const CORRELATION_QUERIES = Symbol('CORRELATION_QUERIES');

export const correlationQueriesProvider = {
  provide: CORRELATION_QUERIES,
  inject: [CONFIG],
  useFactory: (config: Config): CorrelationQueries => CorrelationQueries.open(config.dataDir),
};

/** Closes the index's connection when the application stops. */
@Injectable()
export class CorrelationIndexLifecycle implements OnApplicationShutdown {
  constructor(@Inject(CORRELATION_QUERIES) private readonly queries: CorrelationQueries) {}

  onApplicationShutdown(): void {
    this.queries.close();
  }
}
