import type { DecideContext } from '../decide-context.js';
import type { ExistingOrganization } from '../state.js';
import { domainToAdd, withDomainListed } from './domain-lists.js';

export type AddQualityAssuranceDomain = { type: 'AddQualityAssuranceDomain'; data: { domain: string } };

/** domain in ASCII (punycode) form. */
export type QualityAssuranceDomainAdded = { type: 'QualityAssuranceDomainAdded'; data: { domain: string } };

export function addQualityAssuranceDomain(
  command: AddQualityAssuranceDomain,
  state: ExistingOrganization,
  { catalogue }: DecideContext,
): QualityAssuranceDomainAdded[] {
  const domain = domainToAdd(state, 'qualityAssuranceDomains', command.data.domain, catalogue);
  return [{ type: 'QualityAssuranceDomainAdded', data: { domain } }];
}

export const withQualityAssuranceDomainAdded = (
  state: ExistingOrganization,
  { data }: QualityAssuranceDomainAdded,
): ExistingOrganization => withDomainListed(state, 'qualityAssuranceDomains', data.domain);
