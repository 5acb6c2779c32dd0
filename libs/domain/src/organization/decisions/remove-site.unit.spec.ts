import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import { onClassicPlan, siteAdded } from '../../testing/organization-events.js';

describe('RemoveSite', () => {
  it('removes a site', () => {
    given([...onClassicPlan('professional'), siteAdded(1), siteAdded(2)])
      .when({ type: 'RemoveSite', data: { siteId: 'site-1' } })
      .then([{ type: 'SiteRemoved', data: { siteId: 'site-1' } }]);
  });

  it('refuses to remove a site that does not exist (NOT_FOUND)', () => {
    given([...onClassicPlan('professional'), siteAdded(1)])
      .when({ type: 'RemoveSite', data: { siteId: 'site-2' } })
      .thenThrows('NOT_FOUND', { entity: 'site', siteId: 'site-2' });
  });

  it('refuses an empty site id', () => {
    given(onClassicPlan('professional'))
      .when({ type: 'RemoveSite', data: { siteId: '' } })
      .thenThrows('VALIDATION_FAILED', { field: 'siteId', reason: 'required' });
  });
});
