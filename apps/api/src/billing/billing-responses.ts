// Answer shapes of the two billing webhooks (docs/api.md, Billing integration; docs/billing.md): the single source of
// their schemas in /docs/openapi.json (through `@Operation`).
import { z } from 'zod';
import { jsonSafeInteger } from '../http/operation.decorator.js';

/** POST /billing/events (BillingReceiptAnswer). */
export const billingReceiptAnswer = z.object({
  id: z.string().describe("The provider's event id"),
  outcome: z.enum(['applied', 'superseded']),
  duplicate: z.boolean().describe('The event id was already recorded when this delivery arrived'),
  organizationId: z.string(),
  revision: jsonSafeInteger,
  position: jsonSafeInteger,
});

/**
 * Stripe's event as it signs it: verified over the raw bytes by Stripe's own package, so only its envelope is
 * described.
 */
export const stripeEventRequest = z.looseObject({
  id: z.string(),
  object: z.literal('event'),
  type: z.string(),
  data: z.looseObject({ object: z.looseObject({}) }),
});

/** POST /billing/stripe (StripeReceiptAnswer). */
export const stripeReceiptAnswer = z.object({
  id: z.string(),
  type: z.string(),
  outcome: z.enum(['applied', 'unchanged', 'recorded', 'unmatched', 'ignored']),
  duplicate: z.boolean(),
  organizationId: z.string().nullable(),
  position: jsonSafeInteger.nullable(),
});
