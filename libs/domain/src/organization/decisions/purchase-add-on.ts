import type { PurchaseAddOn } from '../commands.js';
import type { AddOnPurchased } from '../events.js';
import { ADD_ONS } from '../../plans/plan-lines.js';
import { optionalQuantity, requireOneOf } from '../command-validation.js';

/** Allowed with or without a plan: a paid purchase is never lost; its effects apply under whichever plan governs. */
export function purchaseAddOn(command: PurchaseAddOn): AddOnPurchased[] {
  const addOn = requireOneOf('addOn', command.data.addOn, ADD_ONS);
  const quantity = optionalQuantity(command.data.quantity) ?? 1;
  return [{ type: 'AddOnPurchased', data: { addOn, quantity } }];
}
