import { DomainError } from '../../errors.js';
import { refusalToAdd } from '../../limits/refusal-to-add.js';
import type { DecideContext } from '../decide-context.js';
import type { ExistingOrganization } from '../state.js';
import { requireIdentifier, requireName } from '../command-validation.js';
import { requireHostname } from '../invalid-hostname.js';

/** hostname as the user typed it; the domain normalizes it (seed section 5). */
export type AddSite = { type: 'AddSite'; data: { siteId: string; name: string; hostname: string } };

/** hostname is stored in ASCII (punycode) form. */
export type SiteAdded = { type: 'SiteAdded'; data: { siteId: string; name: string; hostname: string } };

export function addSite(command: AddSite, state: ExistingOrganization, { catalogue }: DecideContext): SiteAdded[] {
  const siteId = requireIdentifier('siteId', command.data.siteId);
  const name = requireName('name', command.data.name);
  const hostname = requireHostname('hostname', command.data.hostname);
  if (state.sites.some((site) => site.siteId === siteId)) {
    throw new DomainError('DUPLICATE', `Site ${siteId} already exists.`, { field: 'siteId', value: siteId });
  }
  if (state.sites.some((site) => site.hostname === hostname.ascii)) {
    throw new DomainError('DUPLICATE', `A site for ${hostname.unicode} already exists.`, {
      field: 'hostname',
      value: hostname.unicode,
    });
  }
  const refusal = refusalToAdd(state, 'contentSections', catalogue);
  if (refusal) throw refusal;
  return [{ type: 'SiteAdded', data: { siteId, name, hostname: hostname.ascii } }];
}

/** The same site added again replaces the earlier entry: a site is never held twice. */
export function withSiteAdded(state: ExistingOrganization, { data }: SiteAdded): ExistingOrganization {
  const { siteId, name, hostname } = data;
  const others = state.sites.filter((site) => site.siteId !== siteId);
  return { ...state, sites: [...others, { siteId, name, hostname }] };
}
