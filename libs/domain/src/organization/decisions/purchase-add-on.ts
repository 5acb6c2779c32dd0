import type { AddOnPurchased } from '../events.js';
import { ADD_ONS } from '../../plans/plan-lines.js';
import { optionalQuantity, requireOneOf } from '../command-validation.js';
import type { AddOn } from '../../plans/catalogue.js';

export type PurchaseAddOn = { type: 'PurchaseAddOn'; data: { addOn: AddOn; quantity?: number } };

/** Allowed with or without a plan: a paid purchase is never lost; its effects apply under whichever plan governs. */
export function purchaseAddOn(command: PurchaseAddOn): AddOnPurchased[] {
  const addOn = requireOneOf('addOn', command.data.addOn, ADD_ONS);
  const quantity = optionalQuantity(command.data.quantity) ?? 1;
  return [{ type: 'AddOnPurchased', data: { addOn, quantity } }];
}
