// READ_MODELS over DATA_DIR/read-models.sqlite, and PROJECTOR_MODE (the PROJECTIONS setting).
import type { FactoryProvider } from '@nestjs/common';
import type { Logger } from 'pino';
import { CONFIG, type Config } from '#config';
import type { PlanCatalogue } from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { ReadModels, READ_MODELS, type ProjectorMode } from '#read-models';
import { PINO } from '../logging/pino.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';

export const PROJECTOR_MODE = Symbol('PROJECTOR_MODE');

export const projectorModeProvider: FactoryProvider<ProjectorMode> = {
  provide: PROJECTOR_MODE,
  inject: [CONFIG],
  useFactory: (config: Config): ProjectorMode => config.projections,
};

export const readModelsProvider: FactoryProvider<ReadModels> = {
  provide: READ_MODELS,
  inject: [CONFIG, EVENT_STORE, PLAN_CATALOGUE, PINO],
  useFactory: (config: Config, store: EventStore, catalogue: PlanCatalogue, logger: Logger): ReadModels =>
    ReadModels.open({ dataDir: config.dataDir, store, catalogue, logger: logger.child({ component: 'projections' }) }),
};
