import { describe, expect, it } from '@jest/globals';
import { anOrganization } from '../testing/console-fixtures';
import {
  allowedText,
  exceededBy,
  leftText,
  limitReachedText,
  overLimitText,
  raising,
  usageText,
  whatRaisesIt,
} from './limits';

const over = (users: number, sites = 0) =>
  anOrganization({
    usage: { users, contentSections: sites, qualityAssuranceDomains: 0, webAnalyticsDomains: 0 },
    canAdd: { users: false, contentSections: false, qualityAssuranceDomains: false, webAnalyticsDomains: false },
    limits: {
      ...anOrganization().limits,
      exceededBy: {
        users: Math.max(users - 5, 0),
        contentSections: Math.max(sites - 2, 0),
        qualityAssuranceDomains: 0,
        webAnalyticsDomains: 0,
      },
    },
  });

describe('a limit exceeded after a downgrade', () => {
  it('says by how much, and what to do', () => {
    const organization = over(8, 3);

    expect(exceededBy(organization, 'users')).toBe(3);
    expect(leftText(organization, 'users')).toBe('3 over the limit');
    expect(limitReachedText(organization, 'users')).toBe('Users over the limit: 8 of 5');
    expect(whatRaisesIt(organization, 'users')).toBe('Remove 3 members, or choose a larger plan, before adding more.');
    expect(overLimitText(organization, 'contentSections')).toBe(
      'Remove 1 site, or choose a larger plan, before adding more.',
    );
  });

  it('reads as before at the limit, and from a server that does not say (no exceededBy)', () => {
    const atLimit = over(5);
    expect(leftText(atLimit, 'users')).toBe('None left');
    expect(limitReachedText(atLimit, 'users')).toBe('Users limit reached: 5 of 5');
    const older = anOrganization({ limits: { ...anOrganization().limits, exceededBy: undefined } });
    expect(exceededBy(older, 'users')).toBe(0);
  });
});

describe('what raises a reached limit, for this organization', () => {
  const sitesFull = (limits: Partial<ReturnType<typeof anOrganization>['limits']> = {}, plan = 'teams') =>
    anOrganization({
      governingPlan: { line: 'chorus', plan },
      usage: { users: 1, contentSections: 5, qualityAssuranceDomains: 0, webAnalyticsDomains: 0 },
      canAdd: { users: true, contentSections: false, qualityAssuranceDomains: false, webAnalyticsDomains: true },
      limits: {
        ...anOrganization().limits,
        configured: { ...anOrganization().limits.configured, contentSections: 5 },
        effective: { ...anOrganization().limits.effective, contentSections: 5 },
        ...limits,
      },
    });

  it('on a plan with add-ons: the add-on, or a larger plan', () => {
    expect(raising(sitesFull(), 'contentSections')).toEqual({
      sentence: 'Each Additional site add-on adds one site, and a larger plan allows more.',
      goal: 'raise',
    });
    expect(raising(sitesFull({}, 'enterprise'), 'contentSections').sentence).toBe(
      'Each Additional site add-on adds one site.',
    );
  });

  it('set by Chorus for the organization: says why neither an add-on nor a plan would raise it, and leads only to Chorus', () => {
    const set = sitesFull({
      setByOperator: {
        users: false,
        contentSections: true,
        qualityAssuranceDomains: false,
        webAnalyticsDomains: false,
      },
    });
    expect(raising(set, 'contentSections')).toEqual({
      sentence:
        'Acme’s limit of 5 sites was set by Chorus, so neither an Additional site add-on nor another plan would raise it: only Chorus can.',
      goal: 'support',
    });
  });

  it('at the plan’s hard limit: an add-on would not raise it, a larger plan does', () => {
    const full = anOrganization({
      usage: { ...anOrganization().usage, users: 10 },
      canAdd: { ...anOrganization().canAdd, users: false },
      limits: {
        ...anOrganization().limits,
        configured: { ...anOrganization().limits.configured, users: 12 },
        effective: { ...anOrganization().limits.effective, users: 10 },
      },
    });
    expect(raising(full, 'users')).toEqual({
      sentence:
        'That is the most the Teams plan allows, so an Additional user add-on would not raise it: a larger plan does.',
      goal: 'largerPlan',
    });
    const limits = anOrganization().limits;
    const both = anOrganization({
      limits: {
        ...limits,
        configured: { ...limits.configured, users: 10 },
        effective: { ...limits.effective, users: 10 },
      },
    });
    expect(raising(both, 'users').goal).toBe('largerPlan');
  });

  it('web analytics domains: fixed, nothing to offer', () => {
    expect(raising(sitesFull(), 'webAnalyticsDomains')).toEqual({
      sentence: 'The web analytics domain limit is fixed at 1,000.',
      goal: null,
    });
  });
});

describe('what is really allowed without a plan', () => {
  const ended = anOrganization({
    governingPlan: null,
    usage: { users: 2, contentSections: 0, qualityAssuranceDomains: 0, webAnalyticsDomains: 0 },
  });

  it('never says "of unlimited" when nothing can be added', () => {
    expect(usageText(ended, 'contentSections')).toBe('0 in use');
    expect(allowedText(ended, 'contentSections')).toBe('0 in use: none can be added without a plan');
    expect(allowedText(ended, 'users')).toBe('2 in use: none can be added without a plan');
    expect(allowedText({ ...ended, usage: { ...ended.usage, users: 0 } }, 'users')).toBe(
      '0 in use: only a first owner can be added without a plan',
    );
    expect(allowedText(anOrganization(), 'contentSections')).toBe('0 of 2');
  });
});
