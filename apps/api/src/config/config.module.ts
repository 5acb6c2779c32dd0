import { type DynamicModule, Global, Module } from '@nestjs/common';
import { CONFIG, type Config } from '#config';
import { AppClock } from './app-clock.js';
import { RUN_MODE, type RunMode } from './run-mode.js';

/** The validated configuration (CONFIG), the run mode (RUN_MODE) and the app's clock, injectable everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: Config, runMode: RunMode): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: CONFIG, useValue: config }, { provide: RUN_MODE, useValue: runMode }, AppClock],
      exports: [CONFIG, RUN_MODE, AppClock],
    };
  }
}
