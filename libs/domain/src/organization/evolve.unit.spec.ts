import { describe, expect, it } from '@jest/globals';
import { deepFreeze } from '../testing/given-when-then.js';
import {
  addOnCancelled,
  addOnPurchased,
  chorusDisabled,
  chorusEnabled,
  chorusPlanAssigned,
  classicPlanAssigned,
  limitsConfigured,
  memberAdded,
  organizationCreated,
  siteAdded,
} from '../testing/organization-events.js';
import { ORGANIZATION_EVENT_TYPES, type OrganizationEvent } from './events.js';
import { evolve, foldOrganization } from './evolve.js';
import { initialOrganizationState, type ExistingOrganization, type OrganizationState } from './state.js';
import { Members } from './members.js';
import { UNKNOWN_EVENT_TYPE } from '../testing/unknown-types.js';

const fold = (events: OrganizationEvent[]): ExistingOrganization => {
  const state = foldOrganization(deepFreeze(events));
  if (!state.exists) throw new Error('expected an organization');
  return state;
};

describe('evolve', () => {
  it('starts from "no organization yet"', () => {
    expect(initialOrganizationState).toEqual({ exists: false });
    expect(foldOrganization([])).toBe(initialOrganizationState);
  });

  it('creates the organization with no plan, standard service, no add-ons, Chorus off, no limits set and empty lists', () => {
    expect(fold([organizationCreated('org-7', 'Acme')])).toEqual({
      exists: true,
      id: 'org-7',
      name: 'Acme',
      plans: { classic: null, chorus: null },
      serviceLevel: 'standard',
      addOns: { additionalContentSection: 0, additionalUser: 0, qualityAssurance: 0, webAnalytics: 0, feedback: 0 },
      chorus: { enabled: false, parallelUse: null },
      limits: {
        configured: { users: null, contentSections: null, qualityAssuranceDomains: null, webAnalyticsDomains: null },
        override: false,
      },
      members: Members.none,
      sites: [],
      qualityAssuranceDomains: [],
      webAnalyticsDomains: [],
      sso: null,
    });
  });

  it('ignores every event before the organization is created, and a second creation', () => {
    expect(foldOrganization([classicPlanAssigned('essential'), memberAdded(1)])).toBe(initialOrganizationState);
    expect(fold([organizationCreated('org-1', 'First'), organizationCreated('org-2', 'Second')])).toMatchObject({
      id: 'org-1',
      name: 'First',
    });
  });

  it('keeps one plan per line; a service level is kept until a later assignment names another', () => {
    const state = fold([
      organizationCreated(),
      classicPlanAssigned('essential', 'assisted'),
      chorusPlanAssigned('teams'),
      classicPlanAssigned('professional'),
    ]);
    expect(state.plans).toEqual({ classic: 'professional', chorus: 'teams' });
    expect(state.serviceLevel).toBe('assisted');
    expect(
      fold([organizationCreated(), chorusPlanAssigned('solo', 'assisted'), chorusPlanAssigned('solo', 'standard')])
        .serviceLevel,
    ).toBe('standard');
  });

  it('ignores a plan recorded on the wrong line', () => {
    const state = fold([organizationCreated(), { type: 'PlanAssigned', data: { line: 'classic', plan: 'solo' } }]);
    expect(state.plans).toEqual({ classic: null, chorus: null });
  });

  it('counts active add-on units: purchases add, cancellations subtract, never below 0', () => {
    const state = fold([
      organizationCreated(),
      addOnPurchased('additionalUser', 3),
      addOnPurchased('additionalUser', 2),
      addOnCancelled('additionalUser', 4),
      addOnCancelled('feedback', 2),
    ]);
    expect(state.addOns).toMatchObject({ additionalUser: 1, feedback: 0 });
  });

  it('enables Chorus with its parallel-use setting and keeps that setting when disabled', () => {
    expect(fold([organizationCreated(), chorusEnabled(true)]).chorus).toEqual({ enabled: true, parallelUse: true });
    expect(fold([organizationCreated(), chorusEnabled(true), chorusDisabled()]).chorus).toEqual({
      enabled: false,
      parallelUse: true,
    });
    expect(fold([organizationCreated(), chorusEnabled(true), chorusEnabled()]).chorus).toEqual({
      enabled: true,
      parallelUse: null,
    });
  });

  it('sets limits given as numbers, clears those given as null, keeps those not given', () => {
    const state = fold([
      organizationCreated(),
      limitsConfigured({ users: 5, contentSections: 3, override: true }),
      limitsConfigured({ users: null, qualityAssuranceDomains: 0 }),
    ]);
    expect(state.limits).toEqual({
      configured: { users: null, contentSections: 3, qualityAssuranceDomains: 0, webAnalyticsDomains: null },
      override: true,
    });
  });

  it('adds and removes members and sites, in the order they came', () => {
    const state = fold([
      organizationCreated(),
      memberAdded(1, 'owner'),
      memberAdded(2),
      memberAdded(3),
      { type: 'MemberRemoved', data: { userId: 'user-2' } },
    ]);
    expect(state.members.toArray().map((member) => member.userId)).toEqual(['user-1', 'user-3']);
    expect(state.members.toArray()[0]).toEqual({
      userId: 'user-1',
      email: 'user1@example.com',
      role: 'owner',
      chorusUser: false,
    });
    const withSites = fold([
      organizationCreated(),
      siteAdded(1),
      siteAdded(2),
      { type: 'SiteRemoved', data: { siteId: 'site-1' } },
    ]);
    expect(withSites.sites).toEqual([{ siteId: 'site-2', name: 'Site 2', hostname: 'site2.example.com' }]);
  });

  it("changes a member's role where it stands in the list, and ignores a role change of someone who is not a member", () => {
    const before = fold([organizationCreated(), memberAdded(1, 'owner'), memberAdded(2), memberAdded(3)]);
    const changed = evolve(before, {
      type: 'MemberRoleChanged',
      data: { userId: 'user-2', email: 'user2@example.com', role: 'admin', previousRole: 'member' },
    });
    expect(
      (changed as ExistingOrganization).members.toArray().map((member) => `${member.userId}:${member.role}`),
    ).toEqual(['user-1:owner', 'user-2:admin', 'user-3:member']);
    expect(
      evolve(before, {
        type: 'MemberRoleChanged',
        data: { userId: 'user-9', email: 'x@example.com', role: 'admin', previousRole: 'member' },
      }),
    ).toBe(before);
  });

  it('never holds a member, site or domain twice', () => {
    const state = fold([
      organizationCreated(),
      memberAdded(1, 'member'),
      memberAdded(1, 'owner'),
      siteAdded(1),
      siteAdded(1),
      { type: 'QualityAssuranceDomainAdded', data: { domain: 'qa.example.com' } },
      { type: 'QualityAssuranceDomainAdded', data: { domain: 'qa.example.com' } },
      { type: 'WebAnalyticsDomainAdded', data: { domain: 'wa.example.com' } },
      { type: 'WebAnalyticsDomainAdded', data: { domain: 'wa.example.com' } },
    ]);
    expect(state.members.toArray()).toEqual([
      { userId: 'user-1', email: 'user1@example.com', role: 'owner', chorusUser: false },
    ]);
    expect(state.sites).toHaveLength(1);
    expect(state.qualityAssuranceDomains).toEqual(['qa.example.com']);
    expect(state.webAnalyticsDomains).toEqual(['wa.example.com']);
  });

  it('adds and removes QA and web analytics domains', () => {
    const state = fold([
      organizationCreated(),
      { type: 'QualityAssuranceDomainAdded', data: { domain: 'a.example.com' } },
      { type: 'QualityAssuranceDomainAdded', data: { domain: 'b.example.com' } },
      { type: 'QualityAssuranceDomainRemoved', data: { domain: 'a.example.com' } },
      { type: 'WebAnalyticsDomainAdded', data: { domain: 'c.example.com' } },
      { type: 'WebAnalyticsDomainRemoved', data: { domain: 'c.example.com' } },
    ]);
    expect(state.qualityAssuranceDomains).toEqual(['b.example.com']);
    expect(state.webAnalyticsDomains).toEqual([]);
  });

  it('leaves the state as it is (the same object) for an event type it does not know', () => {
    const state: OrganizationState = fold([organizationCreated()]);
    const unknown = { type: UNKNOWN_EVENT_TYPE, data: { name: 'New' } } as unknown as OrganizationEvent;
    expect(evolve(state, unknown)).toBe(state);
    expect(evolve(initialOrganizationState, unknown)).toBe(initialOrganizationState);
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty'])(
    'leaves the state as it is for a type named %s, as for any unknown one',
    (type) => {
      const state: OrganizationState = fold([organizationCreated()]);
      const event = { type, data: {} } as unknown as OrganizationEvent;
      expect(evolve(state, event)).toBe(state);
      expect(evolve(initialOrganizationState, event)).toBe(initialOrganizationState);
    },
  );

  it.each(ORGANIZATION_EVENT_TYPES.filter((type) => type !== 'OrganizationCreated'))(
    'applies no %s to an organization that does not exist',
    (type) => {
      const event = { type, data: {} } as unknown as OrganizationEvent;
      expect(evolve(initialOrganizationState, event)).toBe(initialOrganizationState);
    },
  );
});
