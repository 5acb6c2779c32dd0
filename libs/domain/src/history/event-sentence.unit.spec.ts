import { describe, expect, it } from '@jest/globals';
import {
  ORGANIZATION_EVENT_TYPES,
  type OrganizationEvent,
  type OrganizationEventType,
} from '../organization/events.js';
import { foldOrganization } from '../organization/evolve.js';
import { memberAdded, organizationCreated, siteAdded } from '../testing/organization-events.js';
import { LimitExceeded, LIMITED_RESOURCE_WORDS } from '../errors.js';
import { LIMITED_RESOURCES } from '../limits/limited-resources.js';
import { EVENT_TYPE_NAMES, eventSentence, namesIn, recordedEventSentence, typeInWords } from './event-sentence.js';
import { ADD_ON_NAMES, RESOURCE_NAMES } from './history-words.js';

const terms = {
  provider: 'stripe',
  subscriptionId: 'sub_1',
  trialEndsAt: null,
  endsOn: null,
  currentPeriod: { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' },
  endedAt: null,
} as const;

type EventOf<Type extends OrganizationEventType> = Extract<OrganizationEvent, { type: Type }>;

/** One event of every type with the sentence it reads as. A new event type fails here until it has both. */
const sentences: { [Type in OrganizationEventType]: [EventOf<Type>, string][] } = {
  OrganizationCreated: [
    [{ type: 'OrganizationCreated', data: { id: 'acme', name: 'Acme' } }, 'Organization created: Acme'],
  ],
  PlanAssigned: [
    [{ type: 'PlanAssigned', data: { line: 'chorus', plan: 'teams' } }, 'Plan assigned: Chorus teams'],
    [
      { type: 'PlanAssigned', data: { line: 'classic', plan: 'professional', serviceLevel: 'assisted' } },
      'Plan assigned: Classic professional, Assisted service level',
    ],
  ],
  AddOnPurchased: [
    [{ type: 'AddOnPurchased', data: { addOn: 'feedback', quantity: 1 } }, 'Add-on purchased: Feedback'],
    [
      { type: 'AddOnPurchased', data: { addOn: 'additionalContentSection', quantity: 2 } },
      'Add-on purchased: 2 × Additional site',
    ],
  ],
  AddOnCancelled: [
    [
      { type: 'AddOnCancelled', data: { addOn: 'additionalUser', quantity: 3 } },
      'Add-on cancelled: 3 × Additional user',
    ],
  ],
  ChorusEnabled: [
    [{ type: 'ChorusEnabled', data: {} }, 'Chorus turned on'],
    [{ type: 'ChorusEnabled', data: { parallelUse: true } }, 'Chorus turned on: with parallel use'],
    [{ type: 'ChorusEnabled', data: { parallelUse: false } }, 'Chorus turned on: without parallel use'],
    [
      { type: 'ChorusEnabled', data: { paidPlan: 'teams' } },
      'Chorus turned on: the Chorus teams plan was paid for through billing, so it is in effect',
    ],
  ],
  ChorusDisabled: [[{ type: 'ChorusDisabled', data: {} }, 'Chorus turned off']],
  MemberErased: [[{ type: 'MemberErased', data: { userId: 'u-1' } }, 'A person’s personal data was erased']],
  LimitsConfigured: [
    [
      { type: 'LimitsConfigured', data: { users: 3, contentSections: 0 } },
      'Limits configured: Users 3, Sites unlimited',
    ],
    [
      { type: 'LimitsConfigured', data: { webAnalyticsDomains: null, override: true } },
      'Limits configured: Web analytics domains from the plan, override on',
    ],
    [{ type: 'LimitsConfigured', data: { users: 1000 } }, 'Limits configured: Users 1,000'],
  ],
  MemberAdded: [
    [
      { type: 'MemberAdded', data: { userId: 'u-ann', email: 'ann@example.com', role: 'admin', chorusUser: false } },
      'Member added: ann@example.com as admin',
    ],
    [
      { type: 'MemberAdded', data: { userId: 'u-bo', email: 'bo@example.com', role: 'auditor', chorusUser: true } },
      'Member added: bo@example.com as auditor, Chorus user',
    ],
  ],
  MemberRemoved: [[{ type: 'MemberRemoved', data: { userId: 'user-1' } }, 'Member removed: user1@example.com']],
  MemberRoleChanged: [
    [
      {
        type: 'MemberRoleChanged',
        data: { userId: 'user-1', email: 'user1@example.com', role: 'owner', previousRole: 'member' },
      },
      'Role changed: user1@example.com from member to owner',
    ],
  ],
  InvitationResent: [
    [
      { type: 'InvitationResent', data: { userId: 'user-1', email: 'user1@example.com' } },
      'Invitation sent again: user1@example.com',
    ],
  ],
  SiteAdded: [
    [
      { type: 'SiteAdded', data: { siteId: 's', name: 'Books', hostname: 'xn--bcher-kva.de' } },
      'Site added: Books (bücher.de)',
    ],
  ],
  SiteRemoved: [[{ type: 'SiteRemoved', data: { siteId: 'site-1' } }, 'Site removed: Site 1 (site1.example.com)']],
  QualityAssuranceDomainAdded: [
    [{ type: 'QualityAssuranceDomainAdded', data: { domain: 'qa.example.com' } }, 'QA domain added: qa.example.com'],
  ],
  QualityAssuranceDomainRemoved: [
    [{ type: 'QualityAssuranceDomainRemoved', data: { domain: 'xn--mnchen-3ya.de' } }, 'QA domain removed: münchen.de'],
  ],
  WebAnalyticsDomainAdded: [
    [
      { type: 'WebAnalyticsDomainAdded', data: { domain: 'stats.example.com' } },
      'Web analytics domain added: stats.example.com',
    ],
  ],
  WebAnalyticsDomainRemoved: [
    [
      { type: 'WebAnalyticsDomainRemoved', data: { domain: 'stats.example.com' } },
      'Web analytics domain removed: stats.example.com',
    ],
  ],
  SsoConfigured: [
    [
      {
        type: 'SsoConfigured',
        data: {
          issuer: 'https://id.acme.example',
          clientId: 'chorus',
          clientSecret: 'sealed:never-shown',
          domains: ['acme.example', 'acme.test'],
          enforce: true,
        },
      },
      'Single sign-on configured: https://id.acme.example for acme.example, acme.test, required',
    ],
  ],
  SamlSsoConfigured: [
    [
      {
        type: 'SamlSsoConfigured',
        data: {
          idpEntityId: 'http://www.okta.com/exk1',
          ssoUrl: 'https://acme.okta.com/app/sso/saml',
          certificates: [],
          metadataUrl: null,
          domains: ['acme.example'],
          enforce: false,
          allowIdpInitiated: true,
        },
      },
      'Single sign-on configured (SAML): http://www.okta.com/exk1 for acme.example, sign-ins started at the provider allowed',
    ],
  ],
  SsoDisabled: [[{ type: 'SsoDisabled', data: {} }, 'Single sign-on turned off']],
  SsoDomainPending: [
    [
      {
        type: 'SsoDomainPending',
        data: {
          domain: 'xn--mnchen-3ya.de',
          token: 'never-in-the-sentence-0123456789ab',
          at: '2030-01-01T00:00:00.000Z',
        },
      },
      'Single sign-on domain awaiting verification: münchen.de, until its DNS record is published',
    ],
  ],
  SsoDomainVerified: [
    [
      { type: 'SsoDomainVerified', data: { domain: 'acme.example', at: '2030-01-01T00:00:00.000Z' } },
      'Single sign-on domain verified: acme.example, its DNS record was found',
    ],
  ],
  SsoDomainRecordMissing: [
    [
      { type: 'SsoDomainRecordMissing', data: { domain: 'acme.example', at: '2030-01-01T00:00:00.000Z' } },
      'Single sign-on domain record missing: acme.example, its DNS record was not found (still verified during the grace period)',
    ],
  ],
  SsoDomainUnverified: [
    [
      { type: 'SsoDomainUnverified', data: { domain: 'acme.example', at: '2030-01-01T00:00:00.000Z' } },
      'Single sign-on domain no longer verified: acme.example, its DNS record was missing for the whole grace period',
    ],
  ],
  TrafficThresholdReached: [
    [
      {
        type: 'TrafficThresholdReached',
        data: { period: '2026-11', threshold: 80, used: 400_120, allowance: 500_000 },
      },
      "Traffic allowance threshold reached: 80% of November 2026's 500,000 page views (400,120 counted)",
    ],
  ],
  PlanEnded: [
    [
      { type: 'PlanEnded', data: { line: 'classic', plan: 'professional', subscriptionId: 'sub_1' } },
      'Plan ended: Classic professional; nothing in use was removed, adds wait for a plan',
    ],
  ],
  SubscriptionChanged: [
    [
      { type: 'SubscriptionChanged', data: { ...terms, status: 'active', previousStatus: null } },
      'Subscription changed: active, renews on 1 December 2026 (Stripe subscription sub_1)',
    ],
    [
      {
        type: 'SubscriptionChanged',
        data: { ...terms, status: 'active', endsOn: '2026-12-01T00:00:00.000Z', previousStatus: 'active' },
      },
      'Subscription changed: active, ends on 1 December 2026 (Stripe subscription sub_1)',
    ],
    [
      {
        type: 'SubscriptionChanged',
        data: { ...terms, status: 'trialing', trialEndsAt: '2026-11-15T12:00:00.000Z', previousStatus: null },
      },
      'Subscription changed: trial until 15 November 2026 (Stripe subscription sub_1)',
    ],
    [
      { type: 'SubscriptionChanged', data: { ...terms, status: 'past_due', previousStatus: 'active' } },
      'Subscription changed: payment failed: the plan stays in force while the payment is retried (Stripe subscription sub_1)',
    ],
    [
      { type: 'SubscriptionChanged', data: { ...terms, status: 'active', previousStatus: 'past_due' } },
      'Subscription changed: active again: the payment was received, renews on 1 December 2026 (Stripe subscription sub_1)',
    ],
    [
      {
        type: 'SubscriptionChanged',
        data: { ...terms, status: 'ended', endedAt: '2026-11-20T08:00:00.000Z', previousStatus: 'active' },
      },
      'Subscription changed: ended on 20 November 2026: no plan is in force, nothing was removed (Stripe subscription sub_1)',
    ],
  ],
  SubscriptionTrialEnding: [
    [
      { type: 'SubscriptionTrialEnding', data: { subscriptionId: 'sub_1', trialEndsAt: '2026-11-15T12:00:00.000Z' } },
      'Trial ending soon: on 15 November 2026; the owners were told',
    ],
  ],
  StripeCustomerBound: [
    [
      { type: 'StripeCustomerBound', data: { customerId: 'cus_1' } },
      "Stripe customer bound: cus_1; only its subscriptions change the organization's plans",
    ],
  ],
  TwoStepSignInPolicySet: [
    [
      { type: 'TwoStepSignInPolicySet', data: { required: true } },
      'Two-step sign-in: required of every member: those without a second factor set one up at their next sign-in',
    ],
    [{ type: 'TwoStepSignInPolicySet', data: { required: false } }, 'Two-step sign-in: no longer required'],
  ],
  DomainJoinSet: [
    [
      { type: 'DomainJoinSet', data: { domain: 'acme.example', join: 'automatic', role: 'auditor' } },
      'Joining by domain: people of acme.example join as auditor when they sign in',
    ],
    [
      { type: 'DomainJoinSet', data: { domain: 'acme.example', join: 'invitation' } },
      'Joining by domain: people of acme.example join by invitation only',
    ],
  ],
  AutomaticJoinRefused: [
    [
      { type: 'AutomaticJoinRefused', data: { domain: 'acme.example', on: '2030-01-01' } },
      'Joining by domain refused: a person of acme.example could not join: the users limit is reached; the owners were told',
    ],
  ],
};

/** The record just before the removals: member 1 and site 1 are in it. */
const names = namesIn(foldOrganization([organizationCreated(), memberAdded(1, 'owner'), siteAdded(1)]));

describe('eventSentence', () => {
  it.each([...ORGANIZATION_EVENT_TYPES])('%s has a sentence, starting with the name of its type', (type) => {
    const examples = (sentences as Record<string, [OrganizationEvent, string][] | undefined>)[type];

    expect(examples?.length ?? 0).toBeGreaterThan(0);
    for (const [event, sentence] of examples ?? []) {
      expect(eventSentence(event, names)).toBe(sentence);
      expect(sentence.startsWith(EVENT_TYPE_NAMES[type])).toBe(true);
    }
  });

  it('the examples cover exactly the event types there are', () => {
    expect(Object.keys(sentences).sort()).toEqual([...ORGANIZATION_EVENT_TYPES].sort());
  });

  it('every type has its own name', () => {
    const typeNames = ORGANIZATION_EVENT_TYPES.map((type) => EVENT_TYPE_NAMES[type]);

    expect(new Set(typeNames).size).toBe(ORGANIZATION_EVENT_TYPES.length);
  });

  it('names a removed member or site by id when the record does not know them', () => {
    expect(eventSentence({ type: 'MemberRemoved', data: { userId: 'gone' } })).toBe('Member removed: user gone');
    expect(eventSentence({ type: 'SiteRemoved', data: { siteId: 'gone' } })).toBe('Site removed: site gone');
  });
});

describe('recordedEventSentence', () => {
  it('reads a stored event of a known type as eventSentence does', () => {
    expect(
      recordedEventSentence('MemberAdded', { userId: 'u', email: 'ann@example.com', role: 'admin', chorusUser: false }),
    ).toBe('Member added: ann@example.com as admin');
  });

  it('names a type this version does not know after the type itself', () => {
    expect(recordedEventSentence('SamlConfigured', { provider: 'okta' })).toBe('Saml configured');
    expect(typeInWords('QualityAssuranceDomainAdded')).toBe('Quality assurance domain added');
  });

  it('never throws on data that is not an object', () => {
    expect(recordedEventSentence('MemberAdded', null)).toBe('Member added');
  });
});

describe('one word for sites wherever a customer reads', () => {
  it('the history, the console and a refusal’s detail say "sites"; the catalogue’s name stays in the field names', () => {
    expect(RESOURCE_NAMES.contentSections).toBe('Sites');
    expect(ADD_ON_NAMES.additionalContentSection).toBe('Additional site');
    for (const resource of LIMITED_RESOURCES)
      expect(LIMITED_RESOURCE_WORDS[resource].toLowerCase()).toBe(RESOURCE_NAMES[resource].toLowerCase());
    const refusal = new LimitExceeded('contentSections', 5, 5);
    expect(refusal.message).toBe('The sites limit of 5 is reached (5 in use).');
    expect(refusal.details).toEqual({ resource: 'contentSections', limit: 5, count: 5 });
  });
});
