import type { DecideContext } from '../decide-context.js';
import type { QualityAssuranceDomainAdded } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { domainToAdd } from './domain-lists.js';

export type AddQualityAssuranceDomain = { type: 'AddQualityAssuranceDomain'; data: { domain: string } };

export function addQualityAssuranceDomain(
  command: AddQualityAssuranceDomain,
  state: ExistingOrganization,
  { catalogue }: DecideContext,
): QualityAssuranceDomainAdded[] {
  const domain = domainToAdd(state, 'qualityAssuranceDomains', command.data.domain, catalogue);
  return [{ type: 'QualityAssuranceDomainAdded', data: { domain } }];
}
