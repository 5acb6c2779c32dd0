import { describe, expect, it } from '@jest/globals';
import { foreignCustomer } from '../../billing/stripe-subscription.js';
import { createPlanCatalogue } from '../../plans/plan-catalogue.js';
import { refusalToAdd } from '../../limits/refusal-to-add.js';
import { given } from '../../testing/given-when-then.js';
import { chorusEnabled, memberAdded, organizationCreated } from '../../testing/organization-events.js';
import type { OrganizationCommandOf } from '../commands.js';
import { decide } from '../decisions.js';
import { organizationView } from '../organization-view.js';
import type { OrganizationEvent, OrganizationEventOf } from '../events.js';
import { foldOrganization } from '../evolve.js';
import { operator } from '../requester.js';
import type { ExistingOrganization, OrganizationState } from '../state.js';

const catalogue = createPlanCatalogue({ paymentProviderIds: [] });
const context = { catalogue, requester: operator };
type Sync = OrganizationCommandOf<'SyncSubscription'>;
const period = { start: '2026-11-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z' };
const active: Sync['data'] = {
  provider: 'stripe',
  subscriptionId: 'sub_1',
  status: 'active',
  trialEndsAt: null,
  endsOn: null,
  currentPeriod: period,
  endedAt: null,
  createdAt: '2026-10-20T09:00:00.000Z',
  customerId: 'cus_1',
  plans: { classic: 'professional' },
  addOns: { additionalUser: 2 },
};
const sync = (data: Partial<Sync['data']>): Sync => ({ type: 'SyncSubscription', data: { ...active, ...data } });
const { plans: _plans, addOns: _addOns, customerId: _customerId, ...terms } = active;

/** Decides each command in turn on the state the earlier ones left; answers every command's events. */
function run(
  commands: OrganizationCommandOf<'SyncSubscription' | 'NoteTrialEnding' | 'AssignPlan' | 'DisableChorus'>[],
  history: OrganizationEvent[] = [organizationCreated()],
) {
  let state: OrganizationState = foldOrganization(history);
  const decided: OrganizationEvent[][] = [];
  for (const command of commands) {
    const events = decide(command, state, context);
    decided.push(events);
    state = foldOrganization(events, state);
  }
  return { decided, state: state as ExistingOrganization };
}

const types = (events: OrganizationEvent[]) => events.map((event) => event.type);

describe('SyncSubscription', () => {
  it('a new subscription records its terms, its plan and its add-on units', () => {
    const { decided, state } = run([sync({})]);

    expect(decided[0]).toEqual(
      [
        { type: 'StripeCustomerBound', data: { customerId: 'cus_1' } },
        { type: 'SubscriptionChanged', data: { ...terms, previousStatus: null } },
        { type: 'PlanAssigned', data: { line: 'classic', plan: 'professional', subscriptionId: 'sub_1' } },
        { type: 'AddOnPurchased', data: { addOn: 'additionalUser', quantity: 2, subscriptionId: 'sub_1' } },
      ].map((event) => JSON.parse(JSON.stringify(event)) as OrganizationEvent),
    );
    expect(state.plans.classic).toBe('professional');
    expect(state.addOns.additionalUser).toBe(2);
    expect(state.subscription).toMatchObject({
      status: 'active',
      plans: { classic: 'professional' },
      addOns: { additionalUser: 2 },
    });
  });

  it('the same state again records nothing; a changed quantity records only that change', () => {
    const { decided } = run([
      sync({}),
      sync({}),
      sync({ addOns: { additionalUser: 5 } }),
      sync({ addOns: { additionalUser: 1 } }),
    ]);

    expect(decided[1]).toEqual([]);
    expect(decided[2]).toEqual([
      { type: 'AddOnPurchased', data: { addOn: 'additionalUser', quantity: 3, subscriptionId: 'sub_1' } },
    ]);
    expect(decided[3]).toEqual([
      { type: 'AddOnCancelled', data: { addOn: 'additionalUser', quantity: 4, subscriptionId: 'sub_1' } },
    ]);
  });

  it('an upgrade or downgrade assigns the new plan and nothing else', () => {
    const { decided } = run([sync({ plans: { classic: 'essential' } }), sync({ plans: { classic: 'professional' } })]);

    expect(decided[1]).toEqual([
      { type: 'PlanAssigned', data: { line: 'classic', plan: 'professional', subscriptionId: 'sub_1' } },
    ]);
  });

  it('a downgrade below what is in use removes nothing: the members stay, adds are refused', () => {
    const members = Array.from({ length: 8 }, (_, index) => memberAdded(index));
    const history = [organizationCreated(), chorusEnabled(), ...members];
    const { state } = run(
      [sync({ plans: { chorus: 'enterprise' }, addOns: {} }), sync({ plans: { chorus: 'teams' }, addOns: {} })],
      history,
    );

    expect(state.members.size).toBe(8);
    expect(refusalToAdd(state, 'users', catalogue)).toMatchObject({ code: 'LIMIT_EXCEEDED' });
  });

  it('cancellation at the period end is recorded with its date; the plan stays', () => {
    const { decided, state } = run([sync({}), sync({ endsOn: period.end })]);

    expect(types(decided[1] ?? [])).toEqual(['SubscriptionChanged']);
    expect(state.plans.classic).toBe('professional');
    expect(state.subscription?.endsOn).toBe(period.end);
  });

  it('past due keeps the plan; paid again is recorded as such', () => {
    const { decided, state } = run([sync({}), sync({ status: 'past_due' }), sync({ status: 'active' })]);

    expect(decided[1]).toEqual([
      expect.objectContaining({
        type: 'SubscriptionChanged',
        data: expect.objectContaining({ status: 'past_due', previousStatus: 'active' }),
      }),
    ]);
    expect(decided[2]).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ status: 'active', previousStatus: 'past_due' }) }),
    ]);
    expect(state.plans.classic).toBe('professional');
  });

  it('an ended subscription ends its plan and cancels its units; the organization has no plan', () => {
    const { decided, state } = run([sync({}), sync({ status: 'ended', endedAt: '2026-11-20T00:00:00.000Z' })]);

    expect(types(decided[1] ?? [])).toEqual(['SubscriptionChanged', 'PlanEnded', 'AddOnCancelled']);
    expect(state.plans.classic).toBeNull();
    expect(state.addOns.additionalUser).toBe(0);
    expect(refusalToAdd(state, 'users', catalogue)?.code).toBe('NO_PLAN');
  });

  it('a plan assigned by hand since is not the subscription’s to end', () => {
    const { decided, state } = run([
      sync({}),
      { type: 'AssignPlan', data: { line: 'classic', plan: 'enterprise' } },
      sync({ status: 'ended', endedAt: period.end }),
    ]);

    expect(types(decided[2] ?? [])).toEqual(['SubscriptionChanged', 'AddOnCancelled']);
    expect(state.plans.classic).toBe('enterprise');
  });

  it('a new subscription takes over from the old one; the old one ending afterwards changes nothing', () => {
    const { decided, state } = run([
      sync({}),
      sync({
        subscriptionId: 'sub_2',
        createdAt: '2026-11-10T00:00:00.000Z',
        plans: { classic: 'essential' },
        addOns: { additionalUser: 1 },
      }),
      sync({ status: 'ended', endedAt: period.end }),
    ]);

    expect(types(decided[1] ?? [])).toEqual(['SubscriptionChanged', 'PlanAssigned', 'AddOnCancelled']);
    expect(decided[2]).toEqual([]);
    expect(state.plans.classic).toBe('essential');
    expect(state.subscription?.subscriptionId).toBe('sub_2');
  });

  it('a paid Chorus plan is in effect: moving from a Classic product to Chorus teams turns Chorus on, as its own event', () => {
    const { decided, state } = run([sync({}), sync({ plans: { chorus: 'teams' } })]);

    expect(decided[1]).toEqual([
      { type: 'PlanEnded', data: { line: 'classic', plan: 'professional', subscriptionId: 'sub_1' } },
      { type: 'PlanAssigned', data: { line: 'chorus', plan: 'teams', subscriptionId: 'sub_1' } },
      { type: 'ChorusEnabled', data: { paidPlan: 'teams' } },
    ]);
    expect(state.chorus.enabled).toBe(true);
    expect(organizationView(state, catalogue).governingPlan).toEqual({ line: 'chorus', plan: 'teams' });
    expect(refusalToAdd(state, 'contentSections', catalogue)).toBeNull();
  });

  it('leaves Chorus as it is when it is on already, when no Chorus plan is bought, and on a later sync of the same plan', () => {
    expect(
      types(run([sync({ plans: { chorus: 'teams' } })], [organizationCreated(), chorusEnabled(true)]).decided[0] ?? []),
    ).not.toContain('ChorusEnabled');
    expect(types(run([sync({})]).decided[0] ?? [])).not.toContain('ChorusEnabled');
    // Turned off by an operator since: the subscription's next event does not turn it on again.
    const { decided } = run([
      sync({ plans: { chorus: 'teams' } }),
      { type: 'DisableChorus', data: {} },
      sync({ status: 'past_due', plans: { chorus: 'teams' } }),
    ]);
    expect(types(decided[2] ?? [])).toEqual(['SubscriptionChanged']);
  });

  it('refuses what is not a subscription', () => {
    expect(() => run([sync({ status: 'paused' as 'active' })])).toThrow(/status/);
    expect(() => run([sync({ endsOn: 'soon' })])).toThrow(/endsOn/);
    expect(() => run([sync({ addOns: { additionalUser: -1 } })])).toThrow(/units/);
  });
});

describe('the organization’s Stripe customer', () => {
  const earlier = '2026-09-01T00:00:00.000Z';
  const later = '2026-11-10T00:00:00.000Z';
  const ended = { status: 'ended', endedAt: '2026-11-20T00:00:00.000Z' } as const;
  const mine = (data: Partial<Sync['data']>): Sync => sync({ addOns: {}, ...data });
  const stranger = (data: Partial<Sync['data']> = {}): Sync =>
    mine({ subscriptionId: 'sub_x', customerId: 'cus_x', createdAt: later, plans: { classic: 'essential' }, ...data });
  const changed = (data: Partial<OrganizationEventOf<'SubscriptionChanged'>['data']> = {}): OrganizationEvent => ({
    type: 'SubscriptionChanged',
    data: { ...terms, previousStatus: null, ...data },
  });
  const assigned = (plan: 'essential' | 'professional', subscriptionId = 'sub_1'): OrganizationEvent => ({
    type: 'PlanAssigned',
    data: { line: 'classic', plan, subscriptionId },
  });
  const bound: OrganizationEvent = { type: 'StripeCustomerBound', data: { customerId: 'cus_1' } };
  /** Subscribed to professional with sub_1 of customer cus_1. */
  const subscribed: OrganizationEvent[] = [organizationCreated(), bound, changed(), assigned('professional')];
  /** Subscribed the same way before customers were bound: no binding, and no creation time recorded. */
  const { createdAt: _createdAt, ...termsBefore } = terms;
  const subscribedBefore: OrganizationEvent[] = [
    organizationCreated(),
    { type: 'SubscriptionChanged', data: { ...termsBefore, previousStatus: null } },
    assigned('professional'),
  ];

  it('the first subscription placed binds the organization to its customer, once', () => {
    given([organizationCreated()])
      .when(mine({}))
      .then([bound, changed(), assigned('professional')]);
    given(subscribed)
      .when(mine({ endsOn: period.end }))
      .then([changed({ endsOn: period.end, previousStatus: 'active' })]);
  });

  it('another customer’s subscription changes nothing, whatever organization it names, nor does its ending', () => {
    given(subscribed).when(stranger()).then([]);
    given(subscribed).when(stranger(ended)).then([]);
    given(subscribed)
      .when(stranger({ customerId: null }))
      .then([]);
    // The question the caller asks of the same state, to keep the event for operators (FOREIGN_CUSTOMER).
    const state = foldOrganization(subscribed) as ExistingOrganization;
    expect(foreignCustomer(state, { subscriptionId: 'sub_x', customerId: 'cus_x', ended: false })).toBe(
      "Subscription sub_x is customer cus_x's; organization org-1 is bound to customer cus_1.",
    );
    expect(foreignCustomer(state, { subscriptionId: 'sub_1', customerId: 'cus_1', ended: false })).toBeNull();
  });

  it('another subscription of the customer takes the place of a running one only if it is newer', () => {
    given(subscribed)
      .when(mine({ subscriptionId: 'sub_0', createdAt: earlier, plans: { classic: 'essential' } }))
      .then([]);
    given(subscribed)
      .when(mine({ subscriptionId: 'sub_2', createdAt: later, plans: { classic: 'essential' } }))
      .then([changed({ subscriptionId: 'sub_2', createdAt: later }), assigned('essential', 'sub_2')]);
    // At the same second, the greater id: every order of delivery agrees.
    given(subscribed)
      .when(mine({ subscriptionId: 'sub_0', plans: { classic: 'essential' } }))
      .then([]);
  });

  it('the ending of a subscription that does not govern the organization changes nothing', () => {
    given(subscribed)
      .when(mine({ subscriptionId: 'sub_0', createdAt: earlier, ...ended }))
      .then([]);
    given(subscribed)
      .when(mine({ subscriptionId: 'sub_2', createdAt: later, ...ended }))
      .then([]);
    given([organizationCreated()]).when(mine(ended)).then([]);
  });

  it('once the governing subscription has ended, another of the customer’s takes its place, older or not', () => {
    const endedHistory = [
      ...subscribed,
      changed({ ...ended, previousStatus: 'active' }),
      { type: 'PlanEnded', data: { line: 'classic', plan: 'professional', subscriptionId: 'sub_1' } } as const,
    ];
    given(endedHistory)
      .when(mine({ subscriptionId: 'sub_0', createdAt: earlier }))
      .then([changed({ subscriptionId: 'sub_0', createdAt: earlier }), assigned('professional', 'sub_0')]);
  });

  it('an organization subscribed before customers were bound is bound by its own subscription’s next event; another waits until then', () => {
    given(subscribedBefore).when(stranger()).then([]);
    const state = foldOrganization(subscribedBefore) as ExistingOrganization;
    expect(foreignCustomer(state, { subscriptionId: 'sub_x', customerId: 'cus_x', ended: false })).toMatch(
      /has subscription sub_1, whose customer is not known yet/,
    );
    given(subscribedBefore)
      .when(mine({}))
      .then([bound, changed({ previousStatus: 'active' })]);
    given([...subscribedBefore, bound])
      .when(stranger())
      .then([]);
  });
});

describe('NoteTrialEnding', () => {
  const trialEndsAt = '2026-11-15T00:00:00.000Z';
  const note = { type: 'NoteTrialEnding' as const, data: { subscriptionId: 'sub_1', trialEndsAt } };

  it('is recorded once per trial end, only while the subscription is in its trial', () => {
    const { decided } = run([
      sync({ status: 'trialing', trialEndsAt }),
      note,
      note,
      sync({ status: 'active', trialEndsAt }),
      { ...note, data: { ...note.data, trialEndsAt: period.end } },
    ]);

    expect(types(decided[1] ?? [])).toEqual(['SubscriptionTrialEnding']);
    expect(decided[2]).toEqual([]);
    expect(decided[4]).toEqual([]);
  });
});
