import type { DecideContext } from '../decide-context.js';
import type { ExistingOrganization } from '../state.js';
import { domainToAdd, withDomainListed } from './domain-lists.js';

export type AddWebAnalyticsDomain = { type: 'AddWebAnalyticsDomain'; data: { domain: string } };

/** domain in ASCII (punycode) form. */
export type WebAnalyticsDomainAdded = { type: 'WebAnalyticsDomainAdded'; data: { domain: string } };

export function addWebAnalyticsDomain(
  command: AddWebAnalyticsDomain,
  state: ExistingOrganization,
  { catalogue }: DecideContext,
): WebAnalyticsDomainAdded[] {
  const domain = domainToAdd(state, 'webAnalyticsDomains', command.data.domain, catalogue);
  return [{ type: 'WebAnalyticsDomainAdded', data: { domain } }];
}

export const withWebAnalyticsDomainAdded = (
  state: ExistingOrganization,
  { data }: WebAnalyticsDomainAdded,
): ExistingOrganization => withDomainListed(state, 'webAnalyticsDomains', data.domain);
