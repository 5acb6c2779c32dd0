// Stripe events shaped as Stripe's API reference gives them (an Event wrapping a Subscription, a Checkout
// Session or an Invoice, API version 2025-03-31.basil: the billing period on the subscription items), signed
// with the official package, for tests of POST /billing/stripe.
import Stripe from 'stripe';
import type { HttpClient, HttpResponse } from './http-client.js';

export const STRIPE_API_VERSION = '2025-03-31.basil';
const DAY = 86_400;

let counter = 0;
export const nextEventId = (): string => `evt_test_${Date.now().toString(36)}_${++counter}`;

export type SubscriptionItemShape = { price: string; product: string; quantity?: number };

export type SubscriptionShape = {
  id: string;
  organizationId?: string | null;
  status?: 'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused';
  items: SubscriptionItemShape[];
  periodStart?: number;
  trialEnd?: number | null;
  cancelAtPeriodEnd?: boolean;
  endedAt?: number | null;
};

/**
 * A Subscription object (https://docs.stripe.com/api/subscriptions/object), the fields Chorus reads and their usual
 * neighbours.
 */
export function subscriptionObject(shape: SubscriptionShape): Record<string, unknown> {
  const start = shape.periodStart ?? Math.floor(Date.UTC(2026, 10, 15) / 1000);
  const end = start + 30 * DAY;
  return {
    id: shape.id,
    object: 'subscription',
    application: null,
    billing_cycle_anchor: start,
    cancel_at: shape.cancelAtPeriodEnd === true ? end : null,
    cancel_at_period_end: shape.cancelAtPeriodEnd ?? false,
    canceled_at: shape.cancelAtPeriodEnd === true ? start + DAY : null,
    collection_method: 'charge_automatically',
    created: start,
    currency: 'eur',
    customer: 'cus_test_chorus',
    ended_at: shape.endedAt ?? null,
    items: {
      object: 'list',
      data: shape.items.map((item, index) => ({
        id: `si_${shape.id}_${index}`,
        object: 'subscription_item',
        created: start,
        current_period_start: start,
        current_period_end: end,
        metadata: {},
        price: {
          id: item.price,
          object: 'price',
          active: true,
          currency: 'eur',
          product: item.product,
          recurring: { interval: 'month', interval_count: 1 },
          type: 'recurring',
          unit_amount: 4900,
        },
        quantity: item.quantity ?? 1,
        subscription: shape.id,
      })),
      has_more: false,
      total_count: shape.items.length,
      url: `/v1/subscription_items?subscription=${shape.id}`,
    },
    livemode: false,
    metadata:
      shape.organizationId === undefined || shape.organizationId === null
        ? {}
        : { organization_id: shape.organizationId },
    start_date: start,
    status: shape.status ?? 'active',
    trial_end: shape.trialEnd ?? null,
    trial_start: shape.trialEnd === null || shape.trialEnd === undefined ? null : start,
  };
}

/** An Event (https://docs.stripe.com/api/events/object) around `object`, made at `created` (unix seconds). */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  created: number,
  id = nextEventId(),
): Record<string, unknown> {
  return {
    id,
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** A Checkout Session that created a subscription for an organization (`client_reference_id`). */
export const checkoutSession = (subscriptionId: string, organizationId: string): Record<string, unknown> => ({
  id: `cs_test_${subscriptionId}`,
  object: 'checkout.session',
  client_reference_id: organizationId,
  customer: 'cus_test_chorus',
  mode: 'subscription',
  payment_status: 'paid',
  status: 'complete',
  subscription: subscriptionId,
});

/** An Invoice of the subscription (current API versions name it under parent.subscription_details). */
export const invoice = (subscriptionId: string, paid: boolean): Record<string, unknown> => ({
  id: `in_test_${subscriptionId}_${++counter}`,
  object: 'invoice',
  customer: 'cus_test_chorus',
  parent: { type: 'subscription_details', subscription_details: { metadata: {}, subscription: subscriptionId } },
  status: paid ? 'paid' : 'open',
  attempt_count: paid ? 1 : 2,
});

/** Posts the exact bytes with a Stripe-Signature made by the official package (`secret`, at `timestamp`). */
export function deliverToStripeEndpoint(
  http: HttpClient,
  event: Record<string, unknown>,
  options: { secret: string; timestamp?: number; signature?: string | null; body?: string },
): Promise<HttpResponse> {
  const payload = JSON.stringify(event);
  const timestamp = options.timestamp === undefined ? {} : { timestamp: options.timestamp };
  const signed = (): string =>
    Stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret, ...timestamp });
  const header = options.signature === undefined ? signed() : options.signature;
  return http.request('POST', '/billing/stripe', {
    raw: options.body ?? payload,
    headers: { 'content-type': 'application/json', ...(header === null ? {} : { 'stripe-signature': header }) },
  });
}
