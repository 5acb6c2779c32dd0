import type { DecideContext } from '../decide-context.js';
import type { WebAnalyticsDomainAdded } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { domainToAdd } from './domain-lists.js';

export type AddWebAnalyticsDomain = { type: 'AddWebAnalyticsDomain'; data: { domain: string } };

export function addWebAnalyticsDomain(
  command: AddWebAnalyticsDomain,
  state: ExistingOrganization,
  { catalogue }: DecideContext,
): WebAnalyticsDomainAdded[] {
  const domain = domainToAdd(state, 'webAnalyticsDomains', command.data.domain, catalogue);
  return [{ type: 'WebAnalyticsDomainAdded', data: { domain } }];
}
