import { Module } from '@nestjs/common';
import { BILLING_CLOCK, systemBillingClock } from './billing-clock.js';
import { BillingEffects } from './billing-effects.js';
import { BillingEventsController } from './billing-events.controller.js';
import { BillingLedger } from './billing-ledger.js';
import { ReceiveBillingEventHandler } from './receive-billing-event.handler.js';

/** The billing integration: the signed webhook and its idempotent ledger (README.md). */
@Module({
  controllers: [BillingEventsController],
  providers: [{ provide: BILLING_CLOCK, useValue: systemBillingClock }, BillingLedger, BillingEffects, ReceiveBillingEventHandler],
})
export class BillingModule {}
