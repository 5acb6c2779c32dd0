import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import {
  addOnPurchased,
  chorusDisabled,
  chorusPlanAssigned,
  classicPlanAssigned,
  chorusEnabled,
  onChorusPlan,
  onClassicPlan,
  organizationCreated,
  qualityAssuranceDomainsAdded,
} from '../../testing/organization-events.js';

const add = (domain: string) => ({ type: 'AddQualityAssuranceDomain' as const, data: { domain } });
const remove = (domain: string) => ({ type: 'RemoveQualityAssuranceDomain' as const, data: { domain } });

describe('AddQualityAssuranceDomain', () => {
  it('adds a normalized domain on a plan with the qualityAssurance feature', () => {
    given(onChorusPlan('enterprise'))
      .when(add('https://Bücher.de/path'))
      .then([{ type: 'QualityAssuranceDomainAdded', data: { domain: 'xn--bcher-kva.de' } }]);
  });

  it('adds a domain on a lower plan once the qualityAssurance add-on is bought', () => {
    given([...onChorusPlan('solo'), addOnPurchased('qualityAssurance')])
      .when(add('qa.example.com'))
      .then([{ type: 'QualityAssuranceDomainAdded', data: { domain: 'qa.example.com' } }]);
  });

  it('refuses without the qualityAssurance feature (FEATURE_DISABLED)', () => {
    given(onChorusPlan('teams'))
      .when(add('qa.example.com'))
      .thenThrows('FEATURE_DISABLED', { feature: 'qualityAssurance' });
  });

  it('refuses while Chorus is disabled, even with the add-on (FEATURE_DISABLED)', () => {
    given([organizationCreated(), chorusPlanAssigned('enterprise'), classicPlanAssigned('enterprise')])
      .when(add('qa.example.com'))
      .thenThrows('FEATURE_DISABLED', { feature: 'qualityAssurance' });
    given([...onClassicPlan('enterprise'), addOnPurchased('qualityAssurance')])
      .when(add('qa.example.com'))
      .thenThrows('FEATURE_DISABLED', { feature: 'qualityAssurance' });
  });

  it('refuses while there is no governing plan (NO_PLAN), before looking at features', () => {
    given([organizationCreated(), chorusEnabled(), addOnPurchased('qualityAssurance')])
      .when(add('qa.example.com'))
      .thenThrows('NO_PLAN', { resource: 'qualityAssuranceDomains' });
  });

  it('refuses a domain already on the list in any form (DUPLICATE)', () => {
    given([
      ...onChorusPlan('enterprise'),
      { type: 'QualityAssuranceDomainAdded', data: { domain: 'xn--bcher-kva.de' } },
    ])
      .when(add('BÜCHER.DE'))
      .thenThrows('DUPLICATE', { field: 'domain', value: 'bücher.de' });
  });

  it('refuses a domain that is not a hostname (INVALID_HOSTNAME)', () => {
    given(onChorusPlan('enterprise'))
      .when(add('intranet'))
      .thenThrows('INVALID_HOSTNAME', { field: 'domain', value: 'intranet', reason: 'no-dot' });
  });

  it('refuses a domain beyond the limit', () => {
    given([...onChorusPlan('solo'), addOnPurchased('qualityAssurance'), ...qualityAssuranceDomainsAdded(1)])
      .when(add('more.example.com'))
      .thenThrows('LIMIT_EXCEEDED', { resource: 'qualityAssuranceDomains', limit: 1, count: 1 });
  });
});

describe('RemoveQualityAssuranceDomain', () => {
  const history = [
    ...onChorusPlan('enterprise'),
    { type: 'QualityAssuranceDomainAdded' as const, data: { domain: 'xn--bcher-kva.de' } },
  ];

  it('removes a domain given in either form', () => {
    given(history)
      .when(remove('bücher.de'))
      .then([{ type: 'QualityAssuranceDomainRemoved', data: { domain: 'xn--bcher-kva.de' } }]);
    given(history)
      .when(remove('xn--bcher-kva.de'))
      .then([{ type: 'QualityAssuranceDomainRemoved', data: { domain: 'xn--bcher-kva.de' } }]);
  });

  it('removes a domain even after the feature is gone', () => {
    given([...history, chorusDisabled()])
      .when(remove('bücher.de'))
      .then([{ type: 'QualityAssuranceDomainRemoved', data: { domain: 'xn--bcher-kva.de' } }]);
  });

  it('refuses a domain not on the list (NOT_FOUND)', () => {
    given(history)
      .when(remove('other.example.com'))
      .thenThrows('NOT_FOUND', { entity: 'qualityAssuranceDomain', domain: 'other.example.com' });
  });

  it('refuses a value that is not a hostname (INVALID_HOSTNAME)', () => {
    given(history)
      .when(remove('%%%'))
      .thenThrows('INVALID_HOSTNAME', { field: 'domain', value: '%%%', reason: 'characters' });
  });
});
