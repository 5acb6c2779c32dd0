import type { RemoveQualityAssuranceDomain } from '../commands.js';
import type { QualityAssuranceDomainRemoved } from '../events.js';
import type { ExistingOrganization } from '../state.js';
import { domainToRemove } from './domain-lists.js';

export function removeQualityAssuranceDomain(
  command: RemoveQualityAssuranceDomain,
  state: ExistingOrganization,
): QualityAssuranceDomainRemoved[] {
  const domain = domainToRemove(state, 'qualityAssuranceDomains', command.data.domain);
  return [{ type: 'QualityAssuranceDomainRemoved', data: { domain } }];
}
