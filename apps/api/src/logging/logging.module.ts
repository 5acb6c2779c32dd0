import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { PINO } from './pino.js';
import { StructuredLogger } from './structured-logger.service.js';

/** PINO (the root pino Logger) and StructuredLogger (Nest's LoggerService over it), injectable everywhere. */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(pino: Logger): DynamicModule {
    return {
      module: LoggingModule,
      providers: [{ provide: PINO, useValue: pino }, StructuredLogger],
      exports: [PINO, StructuredLogger],
    };
  }
}
