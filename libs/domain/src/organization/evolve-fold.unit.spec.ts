// evolve is a pure fold: property-based, over random histories (fast-check).
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { ADD_ONS, CHORUS_PLANS, CLASSIC_PLANS, SERVICE_LEVELS } from '../plans/plan-lines.js';
import { deepFreeze } from '../testing/given-when-then.js';
import type { OrganizationEvent } from './events.js';
import { evolve, foldOrganization } from './evolve.js';
import { MEMBER_ROLES } from './member-roles.js';
import { Members } from './members.js';
import { initialOrganizationState, type OrganizationState } from './state.js';

const userId = fc.constantFrom('u1', 'u2', 'u3');
const domain = fc.constantFrom('a.example.com', 'b.example.com', 'xn--bcher-kva.de');
const limit = fc.option(fc.nat({ max: 20 }), { nil: null });

const anyOrganizationEvent: fc.Arbitrary<OrganizationEvent> = fc.oneof(
  fc.record({
    type: fc.constant('OrganizationCreated' as const),
    data: fc.record({ id: fc.constantFrom('o1', 'o2'), name: fc.string() }),
  }),
  fc.record({
    type: fc.constant('PlanAssigned' as const),
    data: fc.oneof(
      fc.record({ line: fc.constant('classic' as const), plan: fc.constantFrom(...CLASSIC_PLANS) }),
      fc.record(
        {
          line: fc.constant('chorus' as const),
          plan: fc.constantFrom(...CHORUS_PLANS),
          serviceLevel: fc.constantFrom(...SERVICE_LEVELS),
        },
        { requiredKeys: ['line', 'plan'] },
      ),
    ),
  }),
  fc.record({
    type: fc.constantFrom('AddOnPurchased' as const, 'AddOnCancelled' as const),
    data: fc.record({ addOn: fc.constantFrom(...ADD_ONS), quantity: fc.integer({ min: 1, max: 3 }) }),
  }),
  fc.record({
    type: fc.constant('ChorusEnabled' as const),
    data: fc.record({ parallelUse: fc.boolean() }, { requiredKeys: [] }),
  }),
  fc.constant({ type: 'ChorusDisabled' as const, data: {} }),
  fc.record({
    type: fc.constant('LimitsConfigured' as const),
    data: fc.record(
      {
        users: limit,
        contentSections: limit,
        qualityAssuranceDomains: limit,
        webAnalyticsDomains: limit,
        override: fc.boolean(),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({
    type: fc.constant('MemberAdded' as const),
    data: fc.record({
      userId,
      email: fc.constantFrom('a@x.io', 'b@x.io'),
      role: fc.constantFrom(...MEMBER_ROLES),
      chorusUser: fc.boolean(),
    }),
  }),
  fc.record({ type: fc.constant('MemberRemoved' as const), data: fc.record({ userId }) }),
  fc.record({
    type: fc.constant('MemberRoleChanged' as const),
    data: fc.record({
      userId,
      email: fc.constantFrom('a@x.io', 'b@x.io'),
      role: fc.constantFrom(...MEMBER_ROLES),
      previousRole: fc.constantFrom(...MEMBER_ROLES),
    }),
  }),
  fc.record({
    type: fc.constant('SiteAdded' as const),
    data: fc.record({ siteId: fc.constantFrom('s1', 's2'), name: fc.string(), hostname: domain }),
  }),
  fc.record({ type: fc.constant('SiteRemoved' as const), data: fc.record({ siteId: fc.constantFrom('s1', 's2') }) }),
  fc.record({
    type: fc.constantFrom(
      'QualityAssuranceDomainAdded' as const,
      'QualityAssuranceDomainRemoved' as const,
      'WebAnalyticsDomainAdded' as const,
      'WebAnalyticsDomainRemoved' as const,
    ),
    data: fc.record({ domain }),
  }),
  fc.constant({ type: 'SomeFutureEvent', data: { anything: true } } as unknown as OrganizationEvent),
);

/** Histories that mostly start with the creation, so the later events matter. */
const history = fc
  .tuple(fc.boolean(), fc.array(anyOrganizationEvent, { maxLength: 40 }))
  .map(([created, events]) =>
    created ? [{ type: 'OrganizationCreated' as const, data: { id: 'o1', name: 'Acme' } }, ...events] : events,
  );

const memberAdded = fc.record({
  type: fc.constant('MemberAdded' as const),
  data: fc.record({
    userId,
    email: fc.constantFrom('a@x.io', 'b@x.io', 'c@x.io'),
    role: fc.constantFrom(...MEMBER_ROLES),
    chorusUser: fc.boolean(),
  }),
});

/** Histories with runs of members added, as a directory provisions them, between any other events. */
const withRuns = fc
  .tuple(
    fc.array(
      fc.oneof(
        anyOrganizationEvent.map((event) => [event]),
        fc.array(memberAdded, { minLength: 2, maxLength: 8 }),
      ),
      { maxLength: 12 },
    ),
  )
  .map(
    ([chunks]) =>
      [
        { type: 'OrganizationCreated' as const, data: { id: 'o1', name: 'Acme' } },
        ...chunks.flat(),
      ] as OrganizationEvent[],
  );

/**
 * The rule for a member added, stated on its own (the person's earlier entry goes, the new one is last), as the oracle.
 */
const plainlyAdded = (state: OrganizationState, event: OrganizationEvent): OrganizationState => {
  if (!state.exists || event.type !== 'MemberAdded') return evolve(state, event);
  const { userId, email, role, chorusUser } = event.data;
  return {
    ...state,
    members: Members.of([
      ...state.members.toArray().filter((member) => member.userId !== userId),
      { userId, email, role, chorusUser },
    ]),
  };
};

const oneAtATime = (
  events: readonly OrganizationEvent[],
  from: OrganizationState = initialOrganizationState,
): OrganizationState => events.reduce<OrganizationState>(plainlyAdded, from);

describe('evolve as a fold', () => {
  it('applies a run of members added at once exactly as one at a time, changing neither the state nor the events it is given', () => {
    fc.assert(
      fc.property(withRuns, fc.nat(), (events, cut) => {
        const at = cut % (events.length + 1);
        const from = deepFreeze(oneAtATime(events.slice(0, at)));
        const rest = deepFreeze(structuredClone(events.slice(at)));
        expect(foldOrganization(rest, from)).toEqual(oneAtATime(rest, from));
        expect(foldOrganization(events)).toEqual(oneAtATime(events));
      }),
    );
  });

  it('gives the same state for the same events', () => {
    fc.assert(
      fc.property(history, (events) => {
        expect(foldOrganization(events)).toEqual(foldOrganization(structuredClone(events)));
      }),
    );
  });

  it('folding in two halves equals folding at once', () => {
    fc.assert(
      fc.property(history, fc.nat(), (events, cut) => {
        const at = events.length === 0 ? 0 : cut % (events.length + 1);
        const inHalves = foldOrganization(events.slice(at), foldOrganization(events.slice(0, at)));
        expect(inHalves).toEqual(foldOrganization(events));
      }),
    );
  });

  it('mutates neither the state it is given nor the events', () => {
    fc.assert(
      fc.property(history, (events) => {
        const frozenEvents = deepFreeze(structuredClone(events));
        // Every intermediate state is frozen before evolve sees it: a mutation would throw.
        const folded = frozenEvents.reduce<OrganizationState>(
          (state, event) => evolve(deepFreeze(state), event),
          initialOrganizationState,
        );
        expect(folded).toEqual(foldOrganization(events));
        expect(frozenEvents).toEqual(events);
      }),
    );
  });

  it('shares nothing mutable with the events it folded', () => {
    fc.assert(
      fc.property(history, (events) => {
        const copy = structuredClone(events);
        const state = foldOrganization(copy);
        const before = JSON.stringify(state);
        for (const event of copy) (event as { data: Record<string, unknown> }).data.touched = true;
        expect(JSON.stringify(state)).toBe(before);
      }),
    );
  });
});
