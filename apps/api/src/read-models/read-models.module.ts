import { Global, Module } from '@nestjs/common';
import { READ_MODELS } from '#read-models';
import { HealthController } from './health.controller.js';
import { OrganizationReadsController } from './organization-reads.controller.js';
import { ReadModelsLifecycle } from './read-models.lifecycle.js';
import { projectorModeProvider, readModelsProvider } from './read-models.providers.js';

/**
 * The read side: READ_MODELS (queries, read-your-writes, health) for every module, the organization
 * reads and /health, and the projector running in the server (see libs/read-models/README.md).
 */
@Global()
@Module({
  controllers: [OrganizationReadsController, HealthController],
  providers: [readModelsProvider, projectorModeProvider, ReadModelsLifecycle],
  exports: [READ_MODELS],
})
export class ReadModelsModule {}
