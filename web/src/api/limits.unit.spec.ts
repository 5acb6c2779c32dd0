import { describe, expect, it } from '@jest/globals';
import { anOrganization } from '../testing/console-fixtures';
import { exceededBy, leftText, limitReachedText, overLimitText, whatRaisesIt } from './limits';

const over = (users: number, sites = 0) =>
  anOrganization({
    usage: { users, contentSections: sites, qualityAssuranceDomains: 0, webAnalyticsDomains: 0 },
    canAdd: { users: false, contentSections: false, qualityAssuranceDomains: false, webAnalyticsDomains: false },
    limits: {
      ...anOrganization().limits,
      exceededBy: { users: Math.max(users - 5, 0), contentSections: Math.max(sites - 2, 0), qualityAssuranceDomains: 0, webAnalyticsDomains: 0 },
    },
  });

describe('a limit exceeded after a downgrade', () => {
  it('says by how much, and what to do', () => {
    const organization = over(8, 3);

    expect(exceededBy(organization, 'users')).toBe(3);
    expect(leftText(organization, 'users')).toBe('3 over the limit');
    expect(limitReachedText(organization, 'users')).toBe('Users over the limit: 8 of 5');
    expect(whatRaisesIt(organization, 'users')).toBe('Remove 3 members, or choose a larger plan, before adding more.');
    expect(overLimitText(organization, 'contentSections')).toBe('Remove 1 site, or choose a larger plan, before adding more.');
  });

  it('reads as before at the limit, and from a server that does not say (no exceededBy)', () => {
    const atLimit = over(5);
    expect(leftText(atLimit, 'users')).toBe('None left');
    expect(limitReachedText(atLimit, 'users')).toBe('Users limit reached: 5 of 5');
    const older = anOrganization({ limits: { ...anOrganization().limits, exceededBy: undefined } });
    expect(exceededBy(older, 'users')).toBe(0);
  });
});
