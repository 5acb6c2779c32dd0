import { Global, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { READ_MODELS, type ReadModels } from '#read-models';
import { ChorusMetrics } from './chorus-metrics.js';
import { MeteredCommandBus } from './instrumentation.js';
import { MetricsController } from './metrics.controller.js';

/**
 * GET /metrics and what feeds it: HTTP timings by the middleware createApp installs (startRequest, recordHttpAnswer),
 * commands by MeteredCommandBus, appends by TimedEventStore (bound with the store), the projections at each scrape.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [
    {
      provide: ChorusMetrics,
      inject: [ModuleRef],
      // Resolved at each scrape, not here: the read models are built on the (timed) event store.
      useFactory: (modules: ModuleRef) =>
        new ChorusMetrics(() => modules.get<ReadModels>(READ_MODELS, { strict: false }).health()),
    },
    MeteredCommandBus,
  ],
  exports: [ChorusMetrics, MeteredCommandBus],
})
export class MetricsModule {}
