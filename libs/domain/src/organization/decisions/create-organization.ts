import { Members } from '../members.js';
import { DomainError } from '../../errors.js';
import type { ExistingOrganization, OrganizationState } from '../state.js';
import { requireIdentifier, requireName } from '../command-validation.js';

export type CreateOrganization = { type: 'CreateOrganization'; data: { id: string; name: string } };

export type OrganizationCreated = { type: 'OrganizationCreated'; data: { id: string; name: string } };

export function createOrganization(command: CreateOrganization, state: OrganizationState): OrganizationCreated[] {
  if (state.exists)
    throw new DomainError('ALREADY_EXISTS', `Organization ${state.id} already exists.`, { id: state.id });
  const id = requireIdentifier('id', command.data.id);
  const name = requireName('name', command.data.name);
  return [{ type: 'OrganizationCreated', data: { id, name } }];
}

/** The one event that applies to no organization: it makes one, with no plan, nothing bought and nothing listed. */
export const createdOrganization = ({ data }: OrganizationCreated): ExistingOrganization => ({
  exists: true,
  id: data.id,
  name: data.name,
  plans: { classic: null, chorus: null },
  serviceLevel: 'standard',
  addOns: { additionalContentSection: 0, additionalUser: 0, qualityAssurance: 0, webAnalytics: 0, feedback: 0 },
  chorus: { enabled: false, parallelUse: null },
  limits: {
    configured: { users: null, contentSections: null, qualityAssuranceDomains: null, webAnalyticsDomains: null },
    override: false,
  },
  members: Members.none,
  sites: [],
  qualityAssuranceDomains: [],
  webAnalyticsDomains: [],
  sso: null,
});

/** A second creation changes nothing: the organization stays the one first created. */
export const withOrganizationCreated = (
  state: ExistingOrganization,
  _event: OrganizationCreated,
): ExistingOrganization => state;
