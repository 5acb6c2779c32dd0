import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { READ_MODELS, ReadModels, type ReadModelsHealth } from '#read-models';

/** GET /health (API.md, Operations): 200 when ready, 503 otherwise, with the same report. */
@Controller('health')
export class HealthController {
  constructor(@Inject(READ_MODELS) private readonly readModels: ReadModels) {}

  @Get()
  async health(@Res({ passthrough: true }) response: Response): Promise<ReadModelsHealth> {
    const health = await this.readModels.health();
    response.status(health.ready ? 200 : 503).setHeader('Cache-Control', 'no-store');
    return health;
  }
}
