import type { ExistingOrganization } from '../state.js';
import { optionalBoolean } from '../command-validation.js';
import { DomainError } from '../../errors.js';

export type SetTwoStepSignInPolicy = { type: 'SetTwoStepSignInPolicy'; data: { required: boolean } };

/** Whether every member must pass a second step at password sign-in (those without a factor enrol first). */
export type TwoStepSignInPolicySet = { type: 'TwoStepSignInPolicySet'; data: { required: boolean } };

/** Asked of owners only (the route's rule); the same setting again records nothing. */
export function setTwoStepSignInPolicy(
  command: SetTwoStepSignInPolicy,
  state: ExistingOrganization,
): TwoStepSignInPolicySet[] {
  const required = optionalBoolean('required', command.data.required);
  if (required === undefined)
    throw new DomainError('VALIDATION_FAILED', 'required must be true or false.', { field: 'required' });
  return required === (state.twoStepSignInRequired ?? false)
    ? []
    : [{ type: 'TwoStepSignInPolicySet', data: { required } }];
}

export const withTwoStepSignInPolicySet = (
  state: ExistingOrganization,
  { data }: TwoStepSignInPolicySet,
): ExistingOrganization => ({
  ...state,
  twoStepSignInRequired: data.required,
});
