// Matches a payment provider's product id to a plan or an add-on (billing integration, docs/api.md).
import type { AddOn, Line, PlanCatalogue, PlanName } from './catalogue.js';

export type ResolvedProduct = { kind: 'plan'; line: Line; plan: PlanName } | { kind: 'addOn'; addOn: AddOn };

const sells = (
  productId: string,
  item: { paymentProviderId: string | null; linkedProductIds: readonly string[] },
): boolean => item.paymentProviderId === productId || item.linkedProductIds.includes(productId);

export function resolveProduct(catalogue: PlanCatalogue, productId: string): ResolvedProduct | undefined {
  // An empty id would match every plan whose id is missing: it names no product.
  if (productId === '') return undefined;
  const plan = catalogue.plans.find((spec) => sells(productId, spec));
  if (plan) return { kind: 'plan', line: plan.line, plan: plan.name };
  const addOn = catalogue.addOns.find((spec) => sells(productId, spec));
  return addOn ? { kind: 'addOn', addOn: addOn.name } : undefined;
}
