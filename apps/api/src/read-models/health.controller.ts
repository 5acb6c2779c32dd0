import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { READ_MODELS, ReadModels, type ReadModelsHealth } from '#read-models';
import { Credentials, Operation } from '../http/operation.decorator.js';
import { healthAnswer, liveAnswer, readyAnswer } from './read-responses.js';

/**
 * GET /health (docs/api.md, Operations): 200 when ready, 503 otherwise, with the same report.
 * /health/live and /health/ready are the orchestrator's probes: restart when live fails, send no
 * traffic while ready fails.
 */
@Credentials('none')
@Controller('health')
export class HealthController {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  @Get()
  @Operation({
    summary: 'The event store, the projections and their lag; 503 until ready',
    answer: healthAnswer,
    responses: { 503: { description: 'Not ready (the same report)', schema: healthAnswer } },
  })
  async health(@Res({ passthrough: true }) response: Response): Promise<ReadModelsHealth> {
    const health = await this.readModels.health();
    response.status(health.ready ? 200 : 503).setHeader('Cache-Control', 'no-store');
    return health;
  }

  /** The process answers: nothing is asked of the store, so a slow store never gets a healthy process restarted. */
  @Get('live')
  @Operation({ summary: 'Liveness: the process answers (nothing else is checked)', answer: liveAnswer })
  live(@Res({ passthrough: true }) response: Response): { live: true } {
    response.setHeader('Cache-Control', 'no-store');
    return { live: true };
  }

  /** 503 until the store answers and every projection has caught up (the same rule as /health's `ready`), then 200. */
  @Get('ready')
  @Operation({
    summary: 'Readiness: 200 once the store answers and the projections have caught up',
    answer: readyAnswer,
    responses: { 503: { description: 'Not ready yet', schema: readyAnswer } },
  })
  async ready(
    @Res({ passthrough: true }) response: Response,
  ): Promise<Pick<ReadModelsHealth, 'ready' | 'projections'>> {
    const { ready, projections } = await this.readModels.health();
    response.status(ready ? 200 : 503).setHeader('Cache-Control', 'no-store');
    return { ready, projections };
  }
}
