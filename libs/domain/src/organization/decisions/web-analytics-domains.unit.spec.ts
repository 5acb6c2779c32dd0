import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import {
  addOnPurchased,
  chorusEnabled,
  onChorusPlan,
  onClassicPlan,
  organizationCreated,
  webAnalyticsDomainsAdded,
} from '../../testing/organization-events.js';

const add = (domain: string) => ({ type: 'AddWebAnalyticsDomain' as const, data: { domain } });
const remove = (domain: string) => ({ type: 'RemoveWebAnalyticsDomain' as const, data: { domain } });

describe('AddWebAnalyticsDomain', () => {
  it('adds a normalized domain on a plan with the webAnalytics feature', () => {
    given(onChorusPlan('enterprise'))
      .when(add('HTTP://Stats.Example.com:8080'))
      .then([{ type: 'WebAnalyticsDomainAdded', data: { domain: 'stats.example.com' } }]);
  });

  it('adds a domain on a lower plan once the webAnalytics add-on is bought', () => {
    given([...onChorusPlan('light'), addOnPurchased('webAnalytics')])
      .when(add('stats.example.com'))
      .then([{ type: 'WebAnalyticsDomainAdded', data: { domain: 'stats.example.com' } }]);
  });

  it('refuses without the webAnalytics feature (FEATURE_DISABLED)', () => {
    given(onChorusPlan('teams'))
      .when(add('stats.example.com'))
      .thenThrows('FEATURE_DISABLED', { feature: 'webAnalytics' });
    given([...onClassicPlan('enterprise'), addOnPurchased('webAnalytics')])
      .when(add('stats.example.com'))
      .thenThrows('FEATURE_DISABLED', { feature: 'webAnalytics' });
  });

  it('refuses while there is no governing plan (NO_PLAN)', () => {
    given([organizationCreated(), chorusEnabled(), addOnPurchased('webAnalytics')])
      .when(add('stats.example.com'))
      .thenThrows('NO_PLAN', { resource: 'webAnalyticsDomains' });
  });

  it('refuses a domain already on the list (DUPLICATE)', () => {
    given([...onChorusPlan('enterprise'), ...webAnalyticsDomainsAdded(1)])
      .when(add('https://WA1.example.com/'))
      .thenThrows('DUPLICATE', { field: 'domain', value: 'wa1.example.com' });
  });

  it('refuses a domain that is not a hostname (INVALID_HOSTNAME)', () => {
    given(onChorusPlan('enterprise'))
      .when(add('stats'))
      .thenThrows('INVALID_HOSTNAME', { field: 'domain', value: 'stats', reason: 'no-dot' });
  });
});

describe('RemoveWebAnalyticsDomain', () => {
  it('removes a domain on the list', () => {
    given([...onChorusPlan('enterprise'), ...webAnalyticsDomainsAdded(2)])
      .when(remove('wa2.example.com'))
      .then([{ type: 'WebAnalyticsDomainRemoved', data: { domain: 'wa2.example.com' } }]);
  });

  it('refuses a domain not on the list (NOT_FOUND)', () => {
    given([...onChorusPlan('enterprise'), ...webAnalyticsDomainsAdded(1)])
      .when(remove('wa2.example.com'))
      .thenThrows('NOT_FOUND', { entity: 'webAnalyticsDomain', domain: 'wa2.example.com' });
  });

  it('refuses a value that is not a hostname (INVALID_HOSTNAME)', () => {
    given(onChorusPlan('enterprise'))
      .when(remove(''))
      .thenThrows('INVALID_HOSTNAME', { field: 'domain', value: '', reason: 'empty' });
  });
});
