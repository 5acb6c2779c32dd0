// The QA and web analytics domain lists follow the same rules; only the list and its feature differ.
import { DomainError } from '../../errors.js';
import { refusalToAdd } from '../../limits/refusal-to-add.js';
import type { PlanCatalogue } from '../../plans/catalogue.js';
import type { ExistingOrganization } from '../state.js';
import { requireHostname } from '../invalid-hostname.js';

type DomainList = 'qualityAssuranceDomains' | 'webAnalyticsDomains';

const ENTITY: Record<DomainList, string> = {
  qualityAssuranceDomains: 'qualityAssuranceDomain',
  webAnalyticsDomains: 'webAnalyticsDomain',
};

/** The normalized (ASCII) domain to add, or the refusal. */
export function domainToAdd(
  state: ExistingOrganization,
  list: DomainList,
  value: unknown,
  catalogue: PlanCatalogue,
): string {
  const hostname = requireHostname('domain', value);
  if (state[list].includes(hostname.ascii)) {
    throw new DomainError('DUPLICATE', `${hostname.unicode} is already on the list.`, {
      field: 'domain',
      value: hostname.unicode,
    });
  }
  const refusal = refusalToAdd(state, list, catalogue);
  if (refusal) throw refusal;
  return hostname.ascii;
}

/** The normalized (ASCII) domain to remove: given in either form, matched after normalizing. */
export function domainToRemove(state: ExistingOrganization, list: DomainList, value: unknown): string {
  const hostname = requireHostname('domain', value);
  if (!state[list].includes(hostname.ascii)) {
    throw new DomainError('NOT_FOUND', `${hostname.unicode} is not on the list.`, {
      entity: ENTITY[list],
      domain: hostname.unicode,
    });
  }
  return hostname.ascii;
}

/** The list with the domain, once: a domain is never listed twice, even if a stream held its addition twice. */
export function withDomainListed(state: ExistingOrganization, list: DomainList, domain: string): ExistingOrganization {
  const domains = state[list];
  return { ...state, [list]: domains.includes(domain) ? domains : [...domains, domain] };
}

export const withDomainUnlisted = (
  state: ExistingOrganization,
  list: DomainList,
  domain: string,
): ExistingOrganization => ({
  ...state,
  [list]: state[list].filter((listed) => listed !== domain),
});
