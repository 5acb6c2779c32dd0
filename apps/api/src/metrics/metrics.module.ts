import { Module } from '@nestjs/common';
import { READ_MODELS, type ReadModels } from '#read-models';
import { ChorusMetrics } from './chorus-metrics.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsInstrumentation } from './metrics-instrumentation.js';

/**
 * GET /metrics and what feeds it: the HTTP timings are recorded by the middleware createApp installs
 * (startRequest, with recordHttpAnswer), commands and appends by MetricsInstrumentation, the projections at each scrape.
 */
@Module({
  controllers: [MetricsController],
  providers: [
    { provide: ChorusMetrics, inject: [READ_MODELS], useFactory: (readModels: ReadModels) => new ChorusMetrics(() => readModels.health()) },
    MetricsInstrumentation,
  ],
  exports: [ChorusMetrics],
})
export class MetricsModule {}
