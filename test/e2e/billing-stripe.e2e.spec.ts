// POST /billing/stripe end to end, with Stripe's own shapes and signatures made by the official package:
// a subscription's whole life, replays, concurrent and out-of-order deliveries, forged and stale signatures,
// events that cannot be placed, and a downgrade below what is in use.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Stripe from 'stripe';

import { EVENT_STORE, type EventStore } from '#event-store';
import { createApiKey } from '../support/api-keys.js';
import { runChorus } from '../support/chorus-cli.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { createOrganization, organizationEvents } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import {
  checkoutSession,
  deliverToStripeEndpoint,
  invoice,
  stripeEvent,
  subscriptionObject,
  type SubscriptionShape,
} from '../support/stripe-events.js';

const oldSecret = 'whsec_e2e_stripe_old_0123456789';
const secret = 'whsec_e2e_stripe_new_0123456789';
const ESSENTIAL = { price: 'price_ess_monthly', product: 'prod_ess' };
const PROFESSIONAL = { price: 'price_pro_monthly', product: 'prod_pro' };
const EXTRA_SITE = { price: 'price_acs_monthly', product: 'prod_acs' };
const TEAMS = { price: 'price_teams_yearly', product: 'prod_teams' };
// Matched by its price id, not its product: the catalogue lists the price.
const ENTERPRISE = { price: 'price_chorus_enterprise', product: 'prod_unlisted_enterprise' };

// The answers are read as JSON; the test names the fields it checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Organization = Record<string, any>;

let running: RunningApp;
let store: EventStore;
let api: HttpClient;
let stripe: HttpClient;
let clock = Math.floor(Date.UTC(2026, 10, 16) / 1000);
/** Each event a second after the last, as Stripe would make them. */
const tick = (): number => (clock += 1);

beforeAll(async () => {
  running = await startApp({
    STRIPE_WEBHOOK_SECRET: `${oldSecret}, ${secret}`,
    PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
    PLAN_LINKED_PRODUCT_IDS: 'chorus:teams=prod_teams,chorus:enterprise=price_chorus_enterprise',
    LOG_LEVEL: 'silent',
  });
  store = running.app.get<EventStore>(EVENT_STORE);
  api = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write', 'audit:read']),
  });
  stripe = httpClient(running.baseUrl);
});

afterAll(async () => {
  await running.close();
});

const deliver = (
  event: Record<string, unknown>,
  options: { secret?: string; timestamp?: number; signature?: string | null } = {},
): Promise<HttpResponse> => deliverToStripeEndpoint(stripe, event, { secret, ...options });

const subscriptionEvent = (type: string, shape: SubscriptionShape, created = tick()) =>
  stripeEvent(type, subscriptionObject(shape), created);

async function organization(id: string, position?: number): Promise<Organization> {
  const answer = await api.get(`/organizations/${id}${position === undefined ? '' : `?minPosition=${position}`}`);
  expect(answer.status).toBe(200);
  return answer.body as Organization;
}

/** Delivers, expects 200, answers the organization as read after it. */
async function applied(event: Record<string, unknown>, organizationId: string): Promise<Organization> {
  const answer = await deliver(event);
  expect({ status: answer.status, body: answer.body }).toMatchObject({ status: 200 });
  return organization(organizationId, answer.body.position ?? undefined);
}

const typesSince = async (organizationId: string, count: number): Promise<string[]> =>
  (await organizationEvents(store, organizationId)).slice(count).map((event) => event.type);

describe('a subscription’s life', () => {
  let id: string;
  const sub = (fields: Partial<SubscriptionShape> = {}): SubscriptionShape => ({
    id: `sub_life_${id}`,
    organizationId: id,
    items: [ESSENTIAL],
    ...fields,
  });

  beforeAll(async () => {
    id = await createOrganization(api);
  });

  it('created: the plan is in force, with Stripe as the actor and the event id as the correlation', async () => {
    const created = subscriptionEvent('customer.subscription.created', sub());
    const after = await applied(created, id);

    expect(after).toMatchObject({
      plan: 'essential',
      subscription: { provider: 'stripe', status: 'active', endsOn: null, currentPeriod: expect.any(Object) },
    });
    const events = await organizationEvents(store, id);
    const caused = events.filter((event) => event.metadata.correlationId === created.id);
    expect(caused.map((event) => [event.type, event.metadata.actor])).toEqual([
      ['StripeCustomerBound', 'stripe'],
      ['SubscriptionChanged', 'stripe'],
      ['PlanAssigned', 'stripe'],
    ]);
    const correlation = await api.get(`/organizations/${id}/correlations/${created.id as string}`);
    expect(correlation.status).toBe(200);
    expect(
      correlation.body.entries.map(
        (entry: { actorName: string; description: string }) => `${entry.actorName}: ${entry.description}`,
      ),
    ).toEqual(
      expect.arrayContaining([
        'Stripe: Plan assigned: Classic essential',
        expect.stringMatching(/^Stripe: Subscription changed: active, renews on/),
      ]),
    );

    const before = (await organizationEvents(store, id)).length;
    expect((await deliver(created)).body).toMatchObject({ outcome: 'unchanged', duplicate: true });
    expect(await typesSince(id, before)).toEqual([]);
  });

  it('upgraded, then an add-on quantity changed: only what changed is recorded, and a replay changes nothing', async () => {
    let before = (await organizationEvents(store, id)).length;
    const upgrade = subscriptionEvent('customer.subscription.updated', sub({ items: [PROFESSIONAL] }));
    expect(await applied(upgrade, id)).toMatchObject({ plan: 'professional' });
    expect(await typesSince(id, before)).toEqual(['PlanAssigned']);

    before = (await organizationEvents(store, id)).length;
    const sites = subscriptionEvent(
      'customer.subscription.updated',
      sub({ items: [PROFESSIONAL, { ...EXTRA_SITE, quantity: 3 }] }),
    );
    expect(await applied(sites, id)).toMatchObject({ addOns: { additionalContentSection: 3 } });
    const fewer = subscriptionEvent(
      'customer.subscription.updated',
      sub({ items: [PROFESSIONAL, { ...EXTRA_SITE, quantity: 1 }] }),
    );
    expect(await applied(fewer, id)).toMatchObject({ addOns: { additionalContentSection: 1 }, plan: 'professional' });
    expect(await typesSince(id, before)).toEqual(['AddOnPurchased', 'AddOnCancelled']);

    before = (await organizationEvents(store, id)).length;
    for (const replay of [upgrade, sites, fewer])
      expect((await deliver(replay)).body).toMatchObject({ duplicate: true });
    expect(await typesSince(id, before)).toEqual([]);
  });

  it('an older event after a newer one changes nothing', async () => {
    const newer = subscriptionEvent(
      'customer.subscription.updated',
      sub({ items: [PROFESSIONAL, EXTRA_SITE] }),
      clock + 100,
    );
    const older = subscriptionEvent('customer.subscription.updated', sub({ items: [ESSENTIAL] }), clock + 50);
    await applied(newer, id);
    const before = (await organizationEvents(store, id)).length;

    const late = await deliver(older);

    expect(late.body).toMatchObject({ outcome: 'unchanged', duplicate: false });
    expect(await typesSince(id, before)).toEqual([]);
    expect(await organization(id)).toMatchObject({ plan: 'professional' });
    clock += 100;
  });

  it('cancellation at the period end: "ends on" is recorded and shown; the plan stays', async () => {
    const cancelling = subscriptionEvent(
      'customer.subscription.updated',
      sub({ items: [PROFESSIONAL, EXTRA_SITE], cancelAtPeriodEnd: true }),
    );
    const after = await applied(cancelling, id);

    expect(after.plan).toBe('professional');
    expect(after.subscription.endsOn).toBe(after.subscription.currentPeriod.end);
    const before = (await organizationEvents(store, id)).length;
    expect((await deliver(cancelling)).body).toMatchObject({ duplicate: true, outcome: 'unchanged' });
    expect(await typesSince(id, before)).toEqual([]);
  });

  it('past due keeps the plan until the invoice is paid', async () => {
    const failed = stripeEvent('invoice.payment_failed', invoice(`sub_life_${id}`, false), tick());
    expect(await applied(failed, id)).toMatchObject({ plan: 'professional', subscription: { status: 'past_due' } });
    expect((await deliver(failed)).body).toMatchObject({ duplicate: true, outcome: 'unchanged' });

    const paid = stripeEvent('invoice.paid', invoice(`sub_life_${id}`, true), tick());
    expect(await applied(paid, id)).toMatchObject({ plan: 'professional', subscription: { status: 'active' } });
    const before = (await organizationEvents(store, id)).length;
    for (const replay of [failed, paid])
      expect((await deliver(replay)).body).toMatchObject({ duplicate: true, outcome: 'unchanged' });
    expect(await typesSince(id, before)).toEqual([]);
  });

  it('deletion ends the plan: adds answer NO_PLAN, nothing is deleted', async () => {
    await api.post(`/organizations/${id}/sites`, { name: 'Kept', hostname: 'kept.example.com' });
    const deleted = subscriptionEvent(
      'customer.subscription.deleted',
      sub({ status: 'canceled', items: [PROFESSIONAL, EXTRA_SITE], endedAt: clock }),
    );
    const after = await applied(deleted, id);

    expect(after).toMatchObject({
      plan: null,
      governingPlan: null,
      subscription: { status: 'ended', endedAt: expect.any(String) },
      addOns: {},
    });
    expect(after.sites).toHaveLength(1);
    const refused = await api.post(`/organizations/${id}/sites`, { name: 'More', hostname: 'more.example.com' });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'NO_PLAN' });
    const before = (await organizationEvents(store, id)).length;
    expect((await deliver(deleted)).body).toMatchObject({ duplicate: true });
    // An update sent before the deletion and delivered after it revives nothing.
    await deliver(subscriptionEvent('customer.subscription.updated', sub({ items: [PROFESSIONAL] }), clock - 5));
    expect(await typesSince(id, before)).toEqual([]);
  });
});

describe('a trial, and a checkout that names the organization', () => {
  it('a subscription without metadata is placed by its checkout session; the trial end is shown', async () => {
    const id = await createOrganization(api);
    const subscriptionId = `sub_trial_${id}`;
    const trialEnd = clock + 14 * 86_400;
    const shape: SubscriptionShape = {
      id: subscriptionId,
      organizationId: null,
      status: 'trialing',
      items: [ESSENTIAL],
      trialEnd,
    };

    // Stripe may send the subscription before the checkout session: it waits for the session, kept meanwhile.
    const early = await deliver(subscriptionEvent('customer.subscription.created', shape));
    expect(early.body).toMatchObject({ outcome: 'unmatched' });
    const linked = await applied(
      stripeEvent('checkout.session.completed', checkoutSession(subscriptionId, id), tick()),
      id,
    );

    expect(linked).toMatchObject({
      plan: 'essential',
      subscription: { status: 'trialing', trialEndsAt: new Date(trialEnd * 1000).toISOString() },
    });
    const ending = subscriptionEvent('customer.subscription.trial_will_end', shape);
    await applied(ending, id);
    expect((await deliver(ending)).body).toMatchObject({ duplicate: true, outcome: 'unchanged' });
    expect(
      (await organizationEvents(store, id)).filter((event) => event.type === 'SubscriptionTrialEnding'),
    ).toHaveLength(1);
  });
});

describe('deliveries', () => {
  it('20 concurrent deliveries of one event: all 2xx, one effect', async () => {
    const id = await createOrganization(api);
    const created = subscriptionEvent('customer.subscription.created', {
      id: `sub_race_${id}`,
      organizationId: id,
      items: [PROFESSIONAL, { ...EXTRA_SITE, quantity: 2 }],
    });

    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(created)));

    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, () => 200));
    expect((await organizationEvents(store, id)).map((event) => event.type)).toEqual([
      'OrganizationCreated',
      'StripeCustomerBound',
      'SubscriptionChanged',
      'PlanAssigned',
      'AddOnPurchased',
    ]);
    expect(answers.filter((answer) => answer.body.duplicate === false)).toHaveLength(1);
  });

  it('older and newer events of one subscription delivered at once: the organization ends in the newest state', async () => {
    for (let round = 0; round < 5; round += 1) {
      const id = await createOrganization(api);
      const subscriptionId = `sub_mixed_${id}`;
      const base = tick();
      clock += 20;
      const older = Array.from({ length: 12 }, (_, index) =>
        subscriptionEvent(
          'customer.subscription.updated',
          {
            id: subscriptionId,
            organizationId: id,
            items: [index % 2 === 0 ? ESSENTIAL : PROFESSIONAL, { ...EXTRA_SITE, quantity: index + 1 }],
          },
          base + index,
        ),
      );
      const newest = subscriptionEvent(
        'customer.subscription.updated',
        { id: subscriptionId, organizationId: id, items: [PROFESSIONAL, { ...EXTRA_SITE, quantity: 20 }] },
        base + 15,
      );

      const answers = await Promise.all([newest, ...older].map((event) => deliver(event)));

      expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
      expect(
        await organization(id, Math.max(...answers.map((answer) => Number(answer.body.position ?? 0)))),
      ).toMatchObject({
        plan: 'professional',
        addOns: { additionalContentSection: 20 },
      });
    }
  });

  it('a forged, a tampered, a stale and a missing signature are 400 INVALID_SIGNATURE and change nothing', async () => {
    const id = await createOrganization(api);
    const event = subscriptionEvent('customer.subscription.created', {
      id: `sub_forged_${id}`,
      organizationId: id,
      items: [PROFESSIONAL],
    });
    const forged = Stripe.webhooks.generateTestHeaderString({
      payload: JSON.stringify(event),
      secret: 'whsec_attacker_0123456789',
    });
    const stale = Math.floor(Date.now() / 1000) - 301;
    const attempts = [
      () => deliver(event, { signature: forged }),
      () => deliverToStripeEndpoint(stripe, event, { secret, body: JSON.stringify({ ...event, id: 'evt_tampered' }) }),
      () => deliver(event, { timestamp: stale }),
      () => deliver(event, { signature: null }),
      () => deliver(event, { signature: 't=abc,v1=zz' }),
    ];
    for (const attempt of attempts) {
      const answer = await attempt();
      expect({ status: answer.status, code: answer.body.code, type: answer.headers.get('content-type') }).toEqual({
        status: 400,
        code: 'INVALID_SIGNATURE',
        type: expect.stringMatching(/^application\/problem\+json/),
      });
    }
    expect(await organization(id)).toMatchObject({ plan: null, subscription: null });
    expect((await store.readStream(`billing-stripe-subscription-sub_forged_${id}`)).found).toBe(false);
  });

  it('a signature with the old secret of a rotation is accepted', async () => {
    const id = await createOrganization(api);
    const event = subscriptionEvent('customer.subscription.created', {
      id: `sub_rotation_${id}`,
      organizationId: id,
      items: [ESSENTIAL],
    });
    expect((await deliver(event, { secret: oldSecret })).status).toBe(200);
    expect(await organization(id)).toMatchObject({ plan: 'essential' });
  });

  it('event types Chorus does not use are acknowledged and ignored', async () => {
    const answer = await deliver(stripeEvent('customer.created', { id: 'cus_1', object: 'customer' }, tick()));
    expect(answer.body).toMatchObject({ outcome: 'ignored' });
  });
});

describe('events Chorus cannot place', () => {
  it('an unknown organization and an unknown price are 2xx, kept with their reason, and counted', async () => {
    const id = await createOrganization(api);
    const unknownOrganization = subscriptionEvent('customer.subscription.created', {
      id: 'sub_nobody',
      organizationId: 'no-such-organization',
      items: [ESSENTIAL],
    });
    const unknownPrice = subscriptionEvent('customer.subscription.created', {
      id: `sub_price_${id}`,
      organizationId: id,
      items: [{ price: 'price_mystery', product: 'prod_mystery' }],
    });

    for (const event of [unknownOrganization, unknownPrice, unknownPrice])
      expect((await deliver(event)).body).toMatchObject({ outcome: 'unmatched' });

    expect(await organization(id)).toMatchObject({ plan: null, subscription: null });
    // Each kept once, on a stream of its own.
    const reasons = [];
    for (const event of [unknownOrganization, unknownPrice]) {
      const kept = await store.readStream(`billing-stripe-unmatched-${event.id as string}`);
      const data = (kept.found ? kept.events : []).map(
        (recorded) => recorded.data as { eventId: string; reason: string },
      );
      reasons.push(...data.map(({ eventId, reason }) => [eventId, reason]));
    }
    expect(reasons).toEqual([
      [unknownOrganization.id, 'UNKNOWN_ORGANIZATION'],
      [unknownPrice.id, 'UNKNOWN_PRICE'],
    ]);
    const metrics = await httpClient(running.baseUrl).get('/metrics');
    expect(metrics.text).toMatch(/chorus_billing_stripe_unmatched_events_total\{reason="UNKNOWN_PRICE"\} 1/);

    // The operator's list, from the command line on the same store.
    const listed = await runChorus(['billing:unmatched', '--json'], { DATA_DIR: running.dataDir, LOG_LEVEL: 'silent' });
    expect(listed.code).toBe(0);
    const { events } = JSON.parse(listed.stdout) as {
      events: { eventId: string; reason: string; detail: string; receivedAt: string }[];
    };
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          eventId: unknownPrice.id,
          reason: 'UNKNOWN_PRICE',
          detail: expect.stringContaining('price_mystery'),
        }),
        expect.objectContaining({
          eventId: unknownOrganization.id,
          reason: 'UNKNOWN_ORGANIZATION',
          receivedAt: expect.any(String),
        }),
      ]),
    );
    const text = await runChorus(['billing:unmatched'], { DATA_DIR: running.dataDir, LOG_LEVEL: 'silent' });
    expect(text.stdout).toMatch(
      new RegExp(
        `${unknownPrice.id as string}\\s+UNKNOWN_PRICE\\s+customer.subscription.created\\s+Price price_mystery`,
      ),
    );
  });
});

describe('a paid Chorus plan', () => {
  it('moved from a Classic product to Chorus Teams: the Classic plan ends, Teams is in effect, Chorus turned on as its own event', async () => {
    const id = await createOrganization(api);
    const subscriptionId = `sub_move_${id}`;
    await applied(
      subscriptionEvent('customer.subscription.created', {
        id: subscriptionId,
        organizationId: id,
        items: [PROFESSIONAL],
      }),
      id,
    );
    const before = (await organizationEvents(store, id)).length;

    const moved = subscriptionEvent('customer.subscription.updated', {
      id: subscriptionId,
      organizationId: id,
      items: [TEAMS],
    });
    const after = await applied(moved, id);

    expect(after).toMatchObject({
      plan: null,
      chorus: true,
      chorusDetails: { plan: 'teams' },
      governingPlan: { line: 'chorus', plan: 'teams' },
      canAdd: { users: true, contentSections: true },
    });
    const caused = (await organizationEvents(store, id)).slice(before);
    expect(caused.map((event) => [event.type, event.metadata.actor, event.metadata.correlationId])).toEqual([
      ['PlanEnded', 'stripe', moved.id],
      ['PlanAssigned', 'stripe', moved.id],
      ['ChorusEnabled', 'stripe', moved.id],
    ]);
    const correlation = await api.get(`/organizations/${id}/correlations/${moved.id as string}`);
    expect(correlation.body.entries.map((entry: { description: string }) => entry.description)).toContain(
      'Chorus turned on: the Chorus teams plan was paid for through billing, so it is in effect',
    );
    // Redelivered, or the next event of the subscription: nothing more.
    expect((await deliver(moved)).body).toMatchObject({ duplicate: true, outcome: 'unchanged' });
    expect(await typesSince(id, before + caused.length)).toEqual([]);
  });
});

describe('a downgrade below what is in use', () => {
  it('removes nothing: the organization is over its limit, adds are refused, the read model says by how much', async () => {
    const id = await createOrganization(api, { chorus: { enabled: true } });
    const subscriptionId = `sub_down_${id}`;
    await applied(
      subscriptionEvent('customer.subscription.created', {
        id: subscriptionId,
        organizationId: id,
        items: [ENTERPRISE],
      }),
      id,
    );
    for (let index = 0; index < 8; index += 1) {
      const added = await api.post(`/organizations/${id}/members`, {
        email: `member${index}@example.com`,
        role: index === 0 ? 'owner' : 'member',
      });
      expect(added.status).toBe(201);
    }

    const downgrade = subscriptionEvent('customer.subscription.updated', {
      id: subscriptionId,
      organizationId: id,
      items: [TEAMS],
    });
    const after = await applied(downgrade, id);
    const recorded = (await organizationEvents(store, id)).length;
    expect((await deliver(downgrade)).body).toMatchObject({ duplicate: true, outcome: 'unchanged' });
    expect(await typesSince(id, recorded)).toEqual([]);

    expect(after.members).toHaveLength(8);
    expect(after).toMatchObject({
      chorusDetails: { plan: 'teams' },
      usage: { users: 8 },
      limits: { effective: { users: 5 }, exceededBy: { users: 3 } },
      canAdd: { users: false },
    });
    const refused = await api.post(`/organizations/${id}/members`, { email: 'ninth@example.com', role: 'member' });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 409, code: 'LIMIT_EXCEEDED' });
    const service = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['entitlements:read']) });
    const flag = await service.post('/ofrep/v1/evaluate/flags/limits.users', { context: { targetingKey: id } });
    expect(flag.body.value).toEqual({
      limit: 5,
      used: 8,
      remaining: 0,
      exceeded: true,
      exceededBy: 3,
      override: false,
    });
  });
});

describe('the billing period', () => {
  it('counts traffic per billing month from the subscription’s period start', async () => {
    const id = await createOrganization(api);
    const nowSeconds = Math.floor(Date.now() / 1000);
    const periodStart = nowSeconds - 2 * 86_400;
    await applied(
      subscriptionEvent('customer.subscription.created', {
        id: `sub_period_${id}`,
        organizationId: id,
        items: [ESSENTIAL],
        periodStart,
      }),
      id,
    );
    const collector = httpClient(running.baseUrl, { apiKey: await createApiKey(running.app, ['usage:write']) });
    const at = (secondsAgo: number) => new Date((nowSeconds - secondsAgo) * 1000).toISOString();
    const reports = [
      { id: 'this-period', organizationId: id, quantity: 700, occurredAt: at(86_400) },
      // Three days ago is before the period's start: last billing month, even when it was this calendar month.
      { id: 'last-period', organizationId: id, quantity: 50, occurredAt: at(3 * 86_400) },
    ];
    const counted = await collector.post('/usage', { reports });
    expect(counted.status).toBe(202);

    const after = await organization(id, counted.body.position);
    const month = new Date(periodStart * 1000).toISOString().slice(0, 7);
    expect(after.traffic).toMatchObject({ period: month, used: 700 });
  });
});

describe('without STRIPE_WEBHOOK_SECRET', () => {
  it('answers 503', async () => {
    const other = await startApp({ LOG_LEVEL: 'silent' });
    try {
      const answer = await deliverToStripeEndpoint(
        httpClient(other.baseUrl),
        stripeEvent('customer.created', {}, tick()),
        { secret },
      );
      expect({ status: answer.status, code: answer.body.code }).toEqual({
        status: 503,
        code: 'BILLING_NOT_CONFIGURED',
      });
    } finally {
      await other.close();
    }
  });
});
