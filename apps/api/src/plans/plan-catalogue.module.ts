import { Global, Module } from '@nestjs/common';
import { CONFIG, type Config } from '#config';
import { createPlanCatalogue, type PlanCatalogue } from '#domain';

/** Nest injection token for the PlanCatalogue built from the configuration. */
export const PLAN_CATALOGUE = Symbol('PLAN_CATALOGUE');

@Global()
@Module({
  providers: [
    {
      provide: PLAN_CATALOGUE,
      inject: [CONFIG],
      useFactory: (config: Config): PlanCatalogue =>
        createPlanCatalogue({
          paymentProviderIds: config.planPaymentProviderIds,
          linkedProductIds: config.planLinkedProductIds,
        }),
    },
  ],
  exports: [PLAN_CATALOGUE],
})
export class PlanCatalogueModule {}
