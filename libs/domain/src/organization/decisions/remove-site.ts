import { DomainError } from '../../errors.js';
import type { ExistingOrganization } from '../state.js';
import { requireIdentifier } from '../command-validation.js';

export type RemoveSite = { type: 'RemoveSite'; data: { siteId: string } };

export type SiteRemoved = { type: 'SiteRemoved'; data: { siteId: string } };

export function removeSite(command: RemoveSite, state: ExistingOrganization): SiteRemoved[] {
  const siteId = requireIdentifier('siteId', command.data.siteId);
  if (!state.sites.some((site) => site.siteId === siteId)) {
    throw new DomainError('NOT_FOUND', `Site ${siteId} does not exist.`, { entity: 'site', siteId });
  }
  return [{ type: 'SiteRemoved', data: { siteId } }];
}

export const withSiteRemoved = (state: ExistingOrganization, { data }: SiteRemoved): ExistingOrganization => ({
  ...state,
  sites: state.sites.filter((site) => site.siteId !== data.siteId),
});
