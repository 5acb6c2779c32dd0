import type { WebAnalyticsDomainRemoved } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { domainToRemove } from './domain-lists.js';

export type RemoveWebAnalyticsDomain = { type: 'RemoveWebAnalyticsDomain'; data: { domain: string } };

export function removeWebAnalyticsDomain(command: RemoveWebAnalyticsDomain, state: ExistingOrganization): WebAnalyticsDomainRemoved[] {
  const domain = domainToRemove(state, 'webAnalyticsDomains', command.data.domain);
  return [{ type: 'WebAnalyticsDomainRemoved', data: { domain } }];
}
