import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CONFIG, type Config } from '#config';
import { ChorusMetrics } from './chorus-metrics.js';
import { metricsRefusal } from './metrics-access.js';
import { Credentials, Operation } from '../http/operation.decorator.js';

/** GET /metrics: the Prometheus text exposition of ChorusMetrics, for the readers metrics-access.ts admits. */
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: ChorusMetrics,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Credentials('metricsToken', 'none')
  @Get()
  @Operation({
    summary: 'Prometheus metrics (text exposition format)',
    description:
      'Only with `Authorization: Bearer <METRICS_TOKEN>` when that setting is set; otherwise only to clients on this host that no proxy relays.',
    responses: {
      401: 'UNAUTHENTICATED: METRICS_TOKEN is set and was not presented',
      403: 'FORBIDDEN: not from this host',
    },
  })
  async metricsText(@Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<string> {
    const refusal = metricsRefusal(request, this.config.metricsToken);
    if (refusal !== undefined) {
      if (refusal.getStatus() === 401) response.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      throw refusal;
    }
    response.setHeader('Content-Type', this.metrics.registry.contentType).setHeader('Cache-Control', 'no-store');
    return this.metrics.registry.metrics();
  }
}
