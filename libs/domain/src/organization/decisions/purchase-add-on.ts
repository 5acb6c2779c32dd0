import { ADD_ONS } from '../../plans/plan-lines.js';
import { optionalQuantity, requireOneOf } from '../command-validation.js';
import type { AddOn } from '../../plans/catalogue.js';
import type { ExistingOrganization } from '../state.js';
import { withAddOnUnits } from './add-on-units.js';

export type PurchaseAddOn = { type: 'PurchaseAddOn'; data: { addOn: AddOn; quantity?: number } };

export type AddOnPurchased = {
  type: 'AddOnPurchased';
  data: { addOn: AddOn; quantity: number; subscriptionId?: string };
};

/** Allowed with or without a plan: a paid purchase is never lost; its effects apply under whichever plan governs. */
export function purchaseAddOn(command: PurchaseAddOn): AddOnPurchased[] {
  const addOn = requireOneOf('addOn', command.data.addOn, ADD_ONS);
  const quantity = optionalQuantity(command.data.quantity) ?? 1;
  return [{ type: 'AddOnPurchased', data: { addOn, quantity } }];
}

export const withAddOnPurchased = (state: ExistingOrganization, { data }: AddOnPurchased): ExistingOrganization =>
  withAddOnUnits(state, data, data.quantity);
