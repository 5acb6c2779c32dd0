import type { QualityAssuranceDomainRemoved } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { domainToRemove } from './domain-lists.js';

export type RemoveQualityAssuranceDomain = { type: 'RemoveQualityAssuranceDomain'; data: { domain: string } };

export function removeQualityAssuranceDomain(
  command: RemoveQualityAssuranceDomain,
  state: ExistingOrganization,
): QualityAssuranceDomainRemoved[] {
  const domain = domainToRemove(state, 'qualityAssuranceDomains', command.data.domain);
  return [{ type: 'QualityAssuranceDomainRemoved', data: { domain } }];
}
