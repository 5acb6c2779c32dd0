// An organization is bound to the Stripe customer of its first subscription: another customer cannot place a
// subscription on it by naming it (a checkout session's `client_reference_id`, or the subscription's metadata),
// nor end its plan by deleting that subscription. Its events are 200 `unmatched` (FOREIGN_CUSTOMER), kept for
// operators, and change nothing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EVENT_STORE, type EventStore } from '#event-store';
import { createApiKey } from '../support/api-keys.js';
import { runChorus } from '../support/chorus-cli.js';
import { httpClient, type HttpClient, type HttpResponse } from '../support/http-client.js';
import { createOrganization, organizationEvents } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import {
  checkoutSession,
  deliverToStripeEndpoint,
  stripeEvent,
  subscriptionObject,
  type SubscriptionShape,
} from '../support/stripe-events.js';

const secret = 'whsec_e2e_stripe_customer_0123456789';
const ESSENTIAL = { price: 'price_ess_monthly', product: 'prod_ess' };
const PROFESSIONAL = { price: 'price_pro_monthly', product: 'prod_pro' };
const EXTRA_SITE = { price: 'price_acs_monthly', product: 'prod_acs' };
const DAY = 86_400;

let running: RunningApp;
let store: EventStore;
let api: HttpClient;
let clock = Math.floor(Date.UTC(2026, 10, 16) / 1000);
const tick = (): number => (clock += 1);

beforeAll(async () => {
  running = await startApp({
    STRIPE_WEBHOOK_SECRET: secret,
    PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro,,prod_acs',
    LOG_LEVEL: 'silent',
  });
  store = running.app.get<EventStore>(EVENT_STORE);
  api = httpClient(running.baseUrl, {
    apiKey: await createApiKey(running.app, ['organizations:read', 'organizations:write']),
  });
});

afterAll(async () => {
  await running.close();
});

const deliver = (event: Record<string, unknown>): Promise<HttpResponse> =>
  deliverToStripeEndpoint(httpClient(running.baseUrl), event, { secret });

/** A subscription object of `customer` (an id, or the customer object expanded in its place). */
const ofCustomer = (customer: string | Record<string, unknown>, shape: SubscriptionShape): Record<string, unknown> => ({
  ...subscriptionObject(shape),
  customer,
});

describe('another Stripe customer naming an organization', () => {
  let victim: string;
  let victimSubscription: string;
  let recordedBefore: number;

  beforeAll(async () => {
    victim = await createOrganization(api);
    victimSubscription = `sub_victim_${victim}`;
    const subscribed = await deliver(
      stripeEvent(
        'customer.subscription.created',
        ofCustomer('cus_victim', { id: victimSubscription, organizationId: victim, items: [PROFESSIONAL] }),
        tick(),
      ),
    );
    expect(subscribed.body).toMatchObject({ outcome: 'applied' });
    const events = await organizationEvents(store, victim);
    expect(events.filter((event) => event.type === 'StripeCustomerBound').map((event) => event.data)).toEqual([
      { customerId: 'cus_victim' },
    ]);
    recordedBefore = events.length;
  });

  it('a checkout naming the organization, its subscription and its deletion are kept unmatched and change nothing', async () => {
    const attacker = `sub_attacker_${victim}`;
    // Newer than the victim's subscription: being newer gives another customer nothing.
    const shape: SubscriptionShape = {
      id: attacker,
      organizationId: null,
      items: [ESSENTIAL],
      periodStart: clock + 10 * DAY,
    };
    const attack = [
      stripeEvent(
        'checkout.session.completed',
        { ...checkoutSession(attacker, victim), customer: 'cus_attacker' },
        tick(),
      ),
      stripeEvent(
        'customer.subscription.created',
        ofCustomer({ id: 'cus_attacker', object: 'customer' }, shape),
        tick(),
      ),
      stripeEvent(
        'customer.subscription.deleted',
        ofCustomer('cus_attacker', { ...shape, status: 'canceled', endedAt: clock }),
        tick(),
      ),
      // The same with the organization in the subscription's own metadata.
      stripeEvent(
        'customer.subscription.created',
        ofCustomer('cus_attacker', { id: `${attacker}_2`, organizationId: victim, items: [ESSENTIAL, EXTRA_SITE] }),
        tick(),
      ),
      stripeEvent(
        'customer.subscription.deleted',
        ofCustomer('cus_attacker', {
          id: `${attacker}_2`,
          organizationId: victim,
          status: 'canceled',
          items: [ESSENTIAL],
        }),
        tick(),
      ),
    ];

    const answers = [];
    for (const event of attack) answers.push(await deliver(event));

    expect((await organizationEvents(store, victim)).slice(recordedBefore).map((event) => event.type)).toEqual([]);
    const after = (await api.get(`/organizations/${victim}`)).body;
    expect(after).toMatchObject({
      plan: 'professional',
      addOns: {},
      subscription: { status: 'active', endedAt: null },
    });
    expect(answers.map((answer) => [answer.status, answer.body.outcome])).toEqual(attack.map(() => [200, 'unmatched']));
    const listed = await runChorus(['billing:unmatched', '--json'], { DATA_DIR: running.dataDir, LOG_LEVEL: 'silent' });
    expect(listed.code).toBe(0);
    const { events } = JSON.parse(listed.stdout) as {
      events: { eventId: string; reason: string; organizationId: string | null; detail: string }[];
    };
    expect(events.filter((event) => attack.some(({ id }) => id === event.eventId))).toEqual(
      attack.map(({ id }) =>
        expect.objectContaining({
          eventId: id,
          reason: 'FOREIGN_CUSTOMER',
          organizationId: victim,
          detail: expect.stringContaining('bound to customer cus_victim'),
        }),
      ),
    );
  });

  it('its own subscription still changes it', async () => {
    const upgraded = await deliver(
      stripeEvent(
        'customer.subscription.updated',
        ofCustomer('cus_victim', {
          id: victimSubscription,
          organizationId: victim,
          items: [PROFESSIONAL, { ...EXTRA_SITE, quantity: 2 }],
        }),
        tick(),
      ),
    );
    expect(upgraded.body).toMatchObject({ outcome: 'applied' });
    expect(
      (await api.get(`/organizations/${victim}?minPosition=${String(upgraded.body.position)}`)).body,
    ).toMatchObject({
      plan: 'professional',
      addOns: { additionalContentSection: 2 },
    });
  });
});
