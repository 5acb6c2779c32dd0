import { describe, expect, it } from '@jest/globals';
import { anOrganization } from '../testing/console-fixtures';
import type { Problem } from './contract';
import { readRefusalMessage, refusalMessage } from './refusals';

const problem = (code: string, extensions: Record<string, unknown> = {}, detail = ''): Problem => ({
  status: 409,
  code,
  detail,
  ...extensions,
});

describe('every refusal of the server, in words', () => {
  it.each([
    [problem('LIMIT_EXCEEDED', { resource: 'contentSections', limit: 2, count: 2 }), 'Sites limit reached: 2 of 2.'],
    [
      problem('LIMIT_EXCEEDED', { resource: 'users', limit: 1000, count: 1000 }),
      'Users limit reached: 1,000 of 1,000.',
    ],
    [problem('DUPLICATE', { field: 'email', value: 'ann@example.com' }), 'ann@example.com is already a member.'],
    [
      problem('DUPLICATE', { field: 'hostname', value: 'shop.example.com' }),
      'shop.example.com is already one of your sites.',
    ],
    [problem('DUPLICATE', { field: 'domain', value: 'qa.example.com' }), 'qa.example.com is already in the list.'],
    [
      problem('NO_PLAN', { resource: 'users' }),
      'Your organization has no plan yet, so nothing can be added until one is chosen.',
    ],
    [problem('ENTERPRISE_PLAN_REQUIRED', { feature: 'sso' }), 'Single sign-on is part of the Enterprise plans.'],
    [
      problem('ALREADY_REGISTERED', { userId: 'u1' }),
      'They have signed up already, so there is no invitation to send: they sign in as usual.',
    ],
    [problem('LAST_OWNER', { userId: 'u1' }), 'The last owner cannot be removed: make someone else an owner first.'],
    [problem('FORBIDDEN', { requires: 'owner' }), 'Only an owner can add, remove, promote or demote an owner.'],
    [problem('FORBIDDEN'), 'Your role does not allow this change: ask an owner or an admin.'],
    [
      problem('INVALID_HOSTNAME', { field: 'hostname', value: 'shop' }),
      '“shop” is not a hostname: it needs a dot, like shop.example.com (only localhost may go without).',
    ],
    [
      problem('INVALID_HOSTNAME', { field: 'hostname', value: 'ftp://x.example.com', reason: 'scheme' }),
      '“ftp://x.example.com” starts with ftp://: enter the hostname itself, or an address starting with http:// or https://.',
    ],
    [
      problem('INVALID_HOSTNAME', { field: 'hostname', value: '-bad-.example.com', reason: 'label' }),
      '“-bad-.example.com” is not a hostname: between the dots only letters, digits and hyphens, and no part starts or ends with a hyphen.',
    ],
    [
      problem('INVALID_HOSTNAME', { field: 'hostname', value: 'https://exa mple.com/path', reason: 'space' }),
      '“https://exa mple.com/path” has a space in it: a hostname has none.',
    ],
    [
      problem('INVALID_HOSTNAME', { field: 'hostname', value: '', reason: 'empty' }),
      'Enter a hostname, like shop.example.com.',
    ],
    [
      problem('FEATURE_DISABLED', { feature: 'qualityAssurance' }),
      'Quality assurance is off for your organization: the Quality assurance add-on turns it on.',
    ],
    [
      problem('FEATURE_DISABLED', { feature: 'webAnalytics' }),
      'Web analytics is off for your organization: the Web analytics add-on turns it on.',
    ],
    [problem('NOT_FOUND', { entity: 'member' }), 'It is no longer there: the list is up to date now.'],
    [problem('VALIDATION_FAILED', {}, 'name: is required'), 'name: is required'],
    [
      problem(
        'VALIDATION_FAILED',
        { errors: [{ pointer: '#/email', detail: 'must be an e-mail address' }] },
        'email: must be an e-mail address',
      ),
      'Enter one e-mail address, such as name@example.com, without spaces, commas, quotes, angle brackets or hidden characters.',
    ],
    [
      problem('VALIDATION_FAILED', { errors: [{ pointer: '#/name', detail: 'is required' }] }, 'name: is required'),
      'Enter a name.',
    ],
    [problem('WRONG_PASSWORD', {}, 'The current password is not correct.'), 'The current password is not correct.'],
    [problem('INVALID_TOKEN'), 'This link is invalid, has been used or has expired.'],
    [problem('CONCURRENCY_CONFLICT'), 'The organization was changing at the same moment: please try again.'],
    [problem('RATE_LIMITED'), 'Too many attempts: please wait a few minutes and try again.'],
    [problem('UNAUTHENTICATED'), 'Your session has ended: sign in again.'],
    [problem('XSRF_INVALID'), 'This page is out of date: reload it and try again.'],
    [problem('NETWORK'), 'The server could not be reached: check your connection and try again.'],
    [problem('NOT_YET_CONSISTENT'), 'The change is saved but not shown yet: reload the page in a moment.'],
    [problem('INTERNAL'), 'Something went wrong on our side: please try again.'],
  ])('%j', (refusal, words) => {
    expect(refusalMessage(refusal)).toBe(words);
  });

  it('says the plan has ended, not that there is none yet, once the subscription that brought it ended', () => {
    const ended = anOrganization({
      chorus: true,
      chorusDetails: { plan: null, parallelUse: null },
      governingPlan: null,
      subscription: {
        provider: 'stripe',
        status: 'ended',
        trialEndsAt: null,
        endsOn: null,
        currentPeriod: null,
        endedAt: '2030-03-01T00:00:00.000Z',
      },
    });
    expect(refusalMessage(problem('NO_PLAN', { resource: 'contentSections' }), ended)).toBe(
      'Your organization’s plan has ended, so nothing can be added until a plan is chosen.',
    );
  });

  it('says a Chorus plan is not in effect while Chorus is off, rather than that there is no plan', () => {
    const bigCo = anOrganization({
      name: 'Big Co',
      chorus: false,
      chorusDetails: { plan: 'enterprise', parallelUse: null },
      governingPlan: null,
    });
    expect(refusalMessage(problem('NO_PLAN', { resource: 'users' }), bigCo)).toBe(
      'Chorus is off, so Big Co’s Chorus Enterprise plan is not in effect: nothing can be added until Chorus is turned on.',
    );
    expect(refusalMessage(problem('ENTERPRISE_PLAN_REQUIRED', { feature: 'sso' }), bigCo)).toBe(
      'Chorus is off, so its Enterprise plan, which includes single sign-on, is not in effect: turn Chorus on first.',
    );
  });

  it('adds what raises a limit when it knows the organization', () => {
    expect(refusalMessage(problem('LIMIT_EXCEEDED', { resource: 'users', limit: 5, count: 5 }), anOrganization())).toBe(
      'Users limit reached: 5 of 5. Each Additional user add-on adds one member, and a larger plan allows more.',
    );
  });
});

describe('a read refused while the server catches up', () => {
  it('says the list is not shown yet: the reader changed nothing, so nothing is "saved"', () => {
    expect(readRefusalMessage(problem('NOT_YET_CONSISTENT'))).toBe(
      'Chorus is still catching up with the latest changes, so this list is not shown yet: reload the page in a moment.',
    );
    expect(readRefusalMessage(problem('NOT_FOUND', { entity: 'organization' }))).toBe(
      refusalMessage(problem('NOT_FOUND', { entity: 'organization' })),
    );
  });
});
