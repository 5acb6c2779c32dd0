import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { READ_MODELS } from '#read-models';
import { AnswerOnceReadableInterceptor } from './answer-once-readable.interceptor.js';
import { HealthController } from './health.controller.js';
import { OrganizationReadsController } from './organization-reads.controller.js';
import { ReadModelsLifecycle } from './read-models.lifecycle.js';
import { projectorModeProvider, readModelsProvider } from './read-models.providers.js';

/**
 * The read side: READ_MODELS (queries, read-your-writes, health) for every module, the organization
 * reads and /health, the projector running in the server (see libs/read-models/README.md), and the
 * hold on every command's answer until its change is readable here (AnswerOnceReadableInterceptor).
 */
@Global()
@Module({
  controllers: [OrganizationReadsController, HealthController],
  providers: [
    readModelsProvider,
    projectorModeProvider,
    ReadModelsLifecycle,
    { provide: APP_INTERCEPTOR, useClass: AnswerOnceReadableInterceptor },
  ],
  exports: [READ_MODELS],
})
export class ReadModelsModule {}
