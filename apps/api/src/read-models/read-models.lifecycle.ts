import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import { READ_MODELS, ReadModels, type ProjectorMode } from '#read-models';
import { RUN_MODE, type RunMode } from '../config/run-mode.js';
import { PROJECTOR_MODE } from './read-models.providers.js';

/**
 * Starts the projector inside the server unless PROJECTIONS=off (another process runs it); commands
 * of the command line never start it. It stops before the event store closes.
 */
@Injectable()
export class ReadModelsLifecycle implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  constructor(
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
    @Inject(RUN_MODE) private readonly runMode: RunMode,
    @Inject(PROJECTOR_MODE) private readonly projectorMode: ProjectorMode,
  ) {}

  onApplicationBootstrap(): void {
    if (this.runMode === 'server' && this.projectorMode === 'inline') this.readModels.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.readModels.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.readModels.close();
  }
}
