import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import {
  chorusPlanAssigned,
  onClassicPlan,
  organizationCreated,
  siteAdded,
} from '../../testing/organization-events.js';
import type { AddSite } from './add-site.js';

const addSite = (data: Partial<AddSite['data']> = {}): AddSite => ({
  type: 'AddSite',
  data: { siteId: 'site-9', name: 'Shop', hostname: 'shop.example.com', ...data },
});

describe('AddSite', () => {
  it('adds a site with its name trimmed and its hostname normalized', () => {
    given(onClassicPlan('professional'))
      .when(addSite({ name: '  Shop ', hostname: 'HTTPS://Shop.Example.com/landing?x=1' }))
      .then([{ type: 'SiteAdded', data: { siteId: 'site-9', name: 'Shop', hostname: 'shop.example.com' } }]);
  });

  it('stores an internationalized hostname in its ASCII form', () => {
    given(onClassicPlan('professional'))
      .when(addSite({ hostname: 'bücher.de' }))
      .then([{ type: 'SiteAdded', data: { siteId: 'site-9', name: 'Shop', hostname: 'xn--bcher-kva.de' } }]);
  });

  it('refuses a hostname that is not one (INVALID_HOSTNAME)', () => {
    given(onClassicPlan('professional'))
      .when(addSite({ hostname: 'intranet' }))
      .thenThrows('INVALID_HOSTNAME', { field: 'hostname', value: 'intranet', reason: 'no-dot' });
    given(onClassicPlan('professional'))
      .when(addSite({ hostname: '' }))
      .thenThrows('INVALID_HOSTNAME', { field: 'hostname', value: '', reason: 'empty' });
  });

  it('refuses a second site with the same id or the same hostname in any form (DUPLICATE)', () => {
    const history = [
      ...onClassicPlan('enterprise'),
      { type: 'SiteAdded' as const, data: { siteId: 'site-1', name: 'Books', hostname: 'xn--bcher-kva.de' } },
    ];
    given(history)
      .when(addSite({ siteId: 'site-1' }))
      .thenThrows('DUPLICATE', { field: 'siteId', value: 'site-1' });
    given(history)
      .when(addSite({ hostname: 'http://BÜCHER.de/' }))
      .thenThrows('DUPLICATE', { field: 'hostname', value: 'bücher.de' });
  });

  it('refuses a site while there is no plan (NO_PLAN), even for a Chorus plan while Chorus is disabled', () => {
    given([organizationCreated()]).when(addSite()).thenThrows('NO_PLAN', { resource: 'contentSections' });
    given([organizationCreated(), chorusPlanAssigned('enterprise')])
      .when(addSite())
      .thenThrows('NO_PLAN', { resource: 'contentSections' });
  });

  it('refuses a site beyond the content sections limit', () => {
    given([...onClassicPlan('essential'), siteAdded(1)])
      .when(addSite())
      .thenThrows('LIMIT_EXCEEDED', { resource: 'contentSections', limit: 1, count: 1 });
  });

  it.each([
    ['siteId', { siteId: '' }, 'required'],
    ['siteId', { siteId: 'a/b' }, 'invalid_format'],
    ['name', { name: '   ' }, 'required'],
    ['name', { name: 'n'.repeat(201) }, 'too_long'],
  ])('refuses an invalid %s (%j)', (field, data, reason) => {
    given(onClassicPlan('professional')).when(addSite(data)).thenThrows('VALIDATION_FAILED', { field, reason });
  });
});
