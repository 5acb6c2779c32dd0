import { DomainError } from '../../errors.js';
import type { OrganizationCreated } from '../events.js';
import type { OrganizationState } from '../state.js';
import { requireIdentifier, requireName } from '../command-validation.js';

export type CreateOrganization = { type: 'CreateOrganization'; data: { id: string; name: string } };

export function createOrganization(command: CreateOrganization, state: OrganizationState): OrganizationCreated[] {
  if (state.exists) throw new DomainError('ALREADY_EXISTS', `Organization ${state.id} already exists.`, { id: state.id });
  const id = requireIdentifier('id', command.data.id);
  const name = requireName('name', command.data.name);
  return [{ type: 'OrganizationCreated', data: { id, name } }];
}
