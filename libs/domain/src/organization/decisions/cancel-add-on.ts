import { DomainError } from '../../errors.js';
import type { ExistingOrganization } from '../state.js';
import { ADD_ONS } from '../../plans/plan-lines.js';
import { optionalQuantity, requireOneOf } from '../command-validation.js';
import type { AddOn } from '../../plans/catalogue.js';
import { withAddOnUnits } from './add-on-units.js';

/** quantity absent: cancel every active unit of that add-on. */
export type CancelAddOn = { type: 'CancelAddOn'; data: { addOn: AddOn; quantity?: number } };

export type AddOnCancelled = {
  type: 'AddOnCancelled';
  data: { addOn: AddOn; quantity: number; subscriptionId?: string };
};

/** No quantity: cancel every active unit. Items already in use beyond the new limit stay; only new adds are refused. */
export function cancelAddOn(command: CancelAddOn, state: ExistingOrganization): AddOnCancelled[] {
  const addOn = requireOneOf('addOn', command.data.addOn, ADD_ONS);
  const requested = optionalQuantity(command.data.quantity);
  const active = state.addOns[addOn];
  if (active === 0)
    throw new DomainError('NOT_FOUND', `The organization has no active ${addOn} add-on.`, { entity: 'addOn', addOn });
  if (requested !== undefined && requested > active) {
    throw new DomainError('INVALID_QUANTITY', `Only ${active} unit(s) of ${addOn} are active.`, {
      addOn,
      quantity: requested,
      active,
    });
  }
  return [{ type: 'AddOnCancelled', data: { addOn, quantity: requested ?? active } }];
}

export const withAddOnCancelled = (state: ExistingOrganization, { data }: AddOnCancelled): ExistingOrganization =>
  withAddOnUnits(state, data, -data.quantity);
