// What a verified Stripe event says about a subscription, read from Stripe's own shapes: the subscription
// object (`customer.subscription.*`), the checkout session that names its organization, and invoices. The
// fields read are those of Stripe's API reference; the period is on the items in current API versions
// (2025-03-31 and later) and on the subscription itself in older ones, and either is read. Each names its
// customer (`customer`, an id or the expanded object), which binds an organization to it.
import type Stripe from 'stripe';
import type { StripeItem, StripeSubscriptionEvent } from '#domain';

/** The event types Chorus acts on; any other is acknowledged and ignored. */
export const STRIPE_EVENT_TYPES = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'customer.subscription.trial_will_end',
  'checkout.session.completed',
  'invoice.paid',
  'invoice.payment_failed',
] as const;

type Fields = Record<string, unknown>;

const record = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const seconds = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
/** An expandable field: the id, or the object expanded in its place. */
const idOf = (value: unknown): string | null => text(value) ?? text(record(value).id);

function items(subscription: Fields): StripeItem[] {
  const data = record(subscription.items).data;
  return (Array.isArray(data) ? data : []).map((entry) => {
    const item = record(entry);
    const price = record(item.price ?? item.plan);
    return {
      priceId: text(price.id) ?? '',
      productId: idOf(price.product) ?? '',
      quantity: seconds(item.quantity) ?? 1,
    };
  });
}

/**
 * The period: the subscription's own fields (older API versions), else the earliest start and latest end of its items.
 */
function period(subscription: Fields): { start: number | null; end: number | null } {
  const own = { start: seconds(subscription.current_period_start), end: seconds(subscription.current_period_end) };
  if (own.start !== null && own.end !== null) return own;
  const data = record(subscription.items).data;
  const ranges = (Array.isArray(data) ? data : []).map((entry) => {
    const item = record(entry);
    return { start: seconds(item.current_period_start), end: seconds(item.current_period_end) };
  });
  const starts = ranges.flatMap((range) => (range.start === null ? [] : [range.start]));
  const ends = ranges.flatMap((range) => (range.end === null ? [] : [range.end]));
  return { start: starts.length === 0 ? null : Math.min(...starts), end: ends.length === 0 ? null : Math.max(...ends) };
}

/**
 * The invoice's subscription: `parent.subscription_details.subscription` in current API versions, `subscription`
 * before.
 */
const invoiceSubscription = (invoice: Fields): string | null =>
  idOf(record(record(invoice.parent).subscription_details).subscription) ?? idOf(invoice.subscription);

export type StripeObservation = {
  subscriptionId: string | null;
  organizationId: string | null;
  event: StripeSubscriptionEvent | null;
};

/**
 * The observation an event of STRIPE_EVENT_TYPES records on its subscription's stream (event null: it names no
 * subscription).
 */
export function stripeObservation(event: Stripe.Event): StripeObservation {
  const object = record(event.data.object);
  const base = { eventId: event.id, created: event.created };
  const customerId = idOf(object.customer);
  if (event.type === 'checkout.session.completed') {
    const subscriptionId = idOf(object.subscription);
    const organizationId = text(object.client_reference_id);
    const linked = subscriptionId !== null && organizationId !== null;
    const data = linked ? { ...base, subscriptionId, organizationId, customerId } : null;
    return { subscriptionId, organizationId, event: data === null ? null : { type: 'StripeSubscriptionLinked', data } };
  }
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const subscriptionId = invoiceSubscription(object);
    const paid = event.type === 'invoice.paid';
    const observed =
      subscriptionId === null
        ? null
        : ({
            type: 'StripePaymentObserved',
            data: { ...base, eventType: event.type, subscriptionId, paid, customerId },
          } as const);
    return { subscriptionId, organizationId: null, event: observed };
  }
  const subscriptionId = text(object.id);
  const organizationId = text(record(object.metadata).organization_id);
  if (subscriptionId === null) return { subscriptionId, organizationId, event: null };
  const { start, end } = period(object);
  return {
    subscriptionId,
    organizationId,
    event: {
      type: 'StripeSubscriptionObserved',
      data: {
        ...base,
        eventType: event.type,
        subscriptionId,
        organizationId,
        status: text(object.status) ?? '',
        items: items(object),
        trialEnd: seconds(object.trial_end),
        cancelAtPeriodEnd: object.cancel_at_period_end === true,
        cancelAt: seconds(object.cancel_at),
        periodStart: start,
        periodEnd: end,
        endedAt: seconds(object.ended_at),
        customerId,
        subscriptionCreated: seconds(object.created),
      },
    },
  };
}
