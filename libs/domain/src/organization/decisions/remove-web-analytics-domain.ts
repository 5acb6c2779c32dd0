import type { ExistingOrganization } from '../state.js';
import { domainToRemove, withDomainUnlisted } from './domain-lists.js';

export type RemoveWebAnalyticsDomain = { type: 'RemoveWebAnalyticsDomain'; data: { domain: string } };

/** domain in ASCII (punycode) form. */
export type WebAnalyticsDomainRemoved = { type: 'WebAnalyticsDomainRemoved'; data: { domain: string } };

export function removeWebAnalyticsDomain(
  command: RemoveWebAnalyticsDomain,
  state: ExistingOrganization,
): WebAnalyticsDomainRemoved[] {
  const domain = domainToRemove(state, 'webAnalyticsDomains', command.data.domain);
  return [{ type: 'WebAnalyticsDomainRemoved', data: { domain } }];
}

export const withWebAnalyticsDomainRemoved = (
  state: ExistingOrganization,
  { data }: WebAnalyticsDomainRemoved,
): ExistingOrganization => withDomainUnlisted(state, 'webAnalyticsDomains', data.domain);
