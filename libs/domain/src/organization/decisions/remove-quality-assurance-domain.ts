import type { ExistingOrganization } from '../state.js';
import { domainToRemove, withDomainUnlisted } from './domain-lists.js';

export type RemoveQualityAssuranceDomain = { type: 'RemoveQualityAssuranceDomain'; data: { domain: string } };

/** domain in ASCII (punycode) form. */
export type QualityAssuranceDomainRemoved = { type: 'QualityAssuranceDomainRemoved'; data: { domain: string } };

export function removeQualityAssuranceDomain(
  command: RemoveQualityAssuranceDomain,
  state: ExistingOrganization,
): QualityAssuranceDomainRemoved[] {
  const domain = domainToRemove(state, 'qualityAssuranceDomains', command.data.domain);
  return [{ type: 'QualityAssuranceDomainRemoved', data: { domain } }];
}

export const withQualityAssuranceDomainRemoved = (
  state: ExistingOrganization,
  { data }: QualityAssuranceDomainRemoved,
): ExistingOrganization => withDomainUnlisted(state, 'qualityAssuranceDomains', data.domain);
