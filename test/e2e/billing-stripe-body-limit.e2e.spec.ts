// Stripe's events are whole API objects, often past the 16 KiB other routes take (a real
// customer.subscription.updated was 17.7 KB): POST /billing/stripe takes up to 1 MiB, and only it.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { EVENT_STORE, type EventStore } from '#event-store';
import { createApiKey } from '../support/api-keys.js';
import { httpClient, type HttpClient } from '../support/http-client.js';
import { createOrganization, organizationEvents } from '../support/organization-setup.js';
import { startApp, type RunningApp } from '../support/start-app.js';
import { deliverToStripeEndpoint, stripeEvent, subscriptionObject } from '../support/stripe-events.js';

const secret = 'whsec_e2e_stripe_body_0123456789';

let running: RunningApp;
let store: EventStore;
let api: HttpClient;

beforeAll(async () => {
  running = await startApp({
    STRIPE_WEBHOOK_SECRET: secret,
    PLAN_PAYMENT_PROVIDER_IDS: 'prod_ess,prod_pro',
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

/**
 * customer.subscription.created for the organization, padded to about `bytes` (Stripe's objects carry long texts and
 * lists).
 */
function padded(organizationId: string, bytes: number): Record<string, unknown> {
  const subscription = subscriptionObject({
    id: `sub_big_${organizationId}_${bytes}`,
    organizationId,
    items: [{ price: 'price_pro', product: 'prod_pro' }],
  });
  return stripeEvent(
    'customer.subscription.created',
    { ...subscription, description: 'x'.repeat(bytes) },
    Math.floor(Date.now() / 1000),
  );
}

it('accepts a signed Stripe event of 100 KB, refuses one of 2 MiB with 413, and other routes keep 16 KiB', async () => {
  const id = await createOrganization(api);
  const stripe = httpClient(running.baseUrl);

  const big = padded(id, 100_000);
  const accepted = await deliverToStripeEndpoint(stripe, big, { secret });
  expect({ status: accepted.status, outcome: accepted.body.outcome }).toEqual({ status: 200, outcome: 'applied' });
  expect((await api.get(`/organizations/${id}?minPosition=${String(accepted.body.position)}`)).body).toMatchObject({
    plan: 'professional',
  });

  const other = await createOrganization(api);
  const tooBig = await deliverToStripeEndpoint(stripe, padded(other, 2 * 1024 * 1024), { secret });
  expect({ status: tooBig.status, code: tooBig.body?.code }).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  expect((await organizationEvents(store, other)).map((event) => event.type)).toEqual(['OrganizationCreated']);

  const elsewhere = await api.post('/organizations', { name: 'n'.repeat(20_000) });
  expect({ status: elsewhere.status, code: elsewhere.body?.code }).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  const generic = await stripe.request('POST', '/billing/events', {
    raw: JSON.stringify({ padding: 'p'.repeat(20_000) }),
    headers: { 'content-type': 'application/json' },
  });
  expect(generic.status).toBe(413);
});
