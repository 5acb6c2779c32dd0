import type { RemoveWebAnalyticsDomain } from '../commands.js';
import type { WebAnalyticsDomainRemoved } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { domainToRemove } from './domain-lists.js';

export function removeWebAnalyticsDomain(command: RemoveWebAnalyticsDomain, state: ExistingOrganization): WebAnalyticsDomainRemoved[] {
  const domain = domainToRemove(state, 'webAnalyticsDomains', command.data.domain);
  return [{ type: 'WebAnalyticsDomainRemoved', data: { domain } }];
}
