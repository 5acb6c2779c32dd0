// The payment provider's event (docs/api.md, Billing integration); anything else is refused with 400.
import { z } from 'zod';
import { MAX_ADD_ON_QUANTITY } from '#domain';
import { organizationIdSchema } from '../http/organization-ids.js';

const billingEventTypes = ['plan.purchased', 'addon.purchased', 'addon.cancelled'] as const;

export const billingEventSchema = z
  .strictObject({
    // Becomes part of a stream name (`billing-<id>`), so it is kept to a safe alphabet.
    id: z.string().regex(/^[A-Za-z0-9_.:-]{1,200}$/, 'must be 1-200 letters, digits, _ . : or -'),
    type: z.enum(billingEventTypes),
    organizationId: organizationIdSchema,
    productId: z.string().min(1).max(200),
    quantity: z.int().min(1).max(MAX_ADD_ON_QUANTITY).optional(),
    occurredAt: z.iso.datetime({ offset: true }),
  })
  .refine((event) => event.type !== 'plan.purchased' || event.quantity === undefined || event.quantity === 1, {
    message: 'a plan is bought one at a time (quantity must be absent or 1)',
    path: ['quantity'],
  });

export type BillingEvent = z.infer<typeof billingEventSchema>;
