// What a provider event asks of the organization, once its product is matched through the catalogue.
import { resolveProduct, type OrganizationCommand, type PlanCatalogue } from '#domain';
import type { BillingEvent } from './billing-event.schema.js';
import { productMismatch, unknownProduct } from './billing-problems.js';

export function billingCommand(event: BillingEvent, catalogue: PlanCatalogue): OrganizationCommand {
  const product = resolveProduct(catalogue, event.productId);
  if (product === undefined) throw unknownProduct(event.productId);
  switch (event.type) {
    case 'plan.purchased':
      if (product.kind !== 'plan') throw productMismatch(event.productId, event.type, product.kind);
      // No service level: a purchase keeps the one the organization has (PlanAssigned without serviceLevel).
      // Paid: a Chorus plan bought also turns Chorus on (docs/billing.md).
      return { type: 'AssignPlan', data: { line: product.line, plan: product.plan, paid: true } };
    case 'addon.purchased':
      if (product.kind !== 'addOn') throw productMismatch(event.productId, event.type, product.kind);
      return { type: 'PurchaseAddOn', data: { addOn: product.addOn, quantity: event.quantity ?? 1 } };
    case 'addon.cancelled':
      if (product.kind !== 'addOn') throw productMismatch(event.productId, event.type, product.kind);
      // No quantity: every active unit (CancelAddOn).
      return {
        type: 'CancelAddOn',
        data:
          event.quantity === undefined ? { addOn: product.addOn } : { addOn: product.addOn, quantity: event.quantity },
      };
  }
}
