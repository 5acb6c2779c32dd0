import { Module } from '@nestjs/common';
import { BILLING_CLOCK, systemBillingClock } from './billing-clock.js';
import { BillingEffects } from './billing-effects.js';
import { BillingEventsController } from './billing-events.controller.js';
import { BillingLedger } from './billing-ledger.service.js';
import { ReceiveBillingEventHandler } from './receive-billing-event.handler.js';
import { StripeWebhookController } from './stripe/stripe-webhook.controller.js';
import { StripeWebhooks } from './stripe/stripe-webhooks.js';

/**
 * The billing integration: Stripe's webhooks, and the generic signed webhook with its idempotent ledger (README.md).
 */
@Module({
  controllers: [BillingEventsController, StripeWebhookController],
  providers: [
    { provide: BILLING_CLOCK, useValue: systemBillingClock },
    BillingLedger,
    BillingEffects,
    ReceiveBillingEventHandler,
    StripeWebhooks,
  ],
})
export class BillingModule {}
