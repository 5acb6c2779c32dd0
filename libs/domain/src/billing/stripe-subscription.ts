// What Stripe has told Chorus about one subscription, on a stream of its own
// (`billing-stripe-subscription-<subscription id>`): every event about it, in the order they arrived, which
// is not the order Stripe made them in. The subscription's state is the newest of them by Stripe's
// `created` (an older event arriving late changes nothing), and the organization is then brought to that
// state (SyncSubscription), so every delivery converges on the same result, concurrently or after a crash.
import type { Decider } from '../decider.js';
import { resolveProduct } from '../plans/resolve-product.js';
import type { PlanCatalogue } from '../plans/catalogue.js';
import type { SubscriptionCustomer, SubscriptionItems, SubscriptionStatus, SubscriptionTerms } from './subscription.js';

export const stripeSubscriptionStreamPrefix = 'billing-stripe-subscription-';
export const stripeSubscriptionStream = (subscriptionId: string): string =>
  `${stripeSubscriptionStreamPrefix}${subscriptionId}`;

export type StripeItem = { priceId: string; productId: string; quantity: number };

/** A subscription object as one event carried it (unix seconds, as Stripe gives them). */
export type StripeSubscriptionSeen = {
  eventId: string;
  eventType: string;
  created: number;
  subscriptionId: string;
  organizationId: string | null;
  status: string;
  items: StripeItem[];
  trialEnd: number | null;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  periodStart: number | null;
  periodEnd: number | null;
  endedAt: number | null;
  /** Stripe's customer (absent in events recorded before it was read, as the next field). */
  customerId?: string | null;
  /** When Stripe created the subscription (the object's own `created`, not the event's). */
  subscriptionCreated?: number | null;
};

export type StripeSubscriptionObserved = { type: 'StripeSubscriptionObserved'; data: StripeSubscriptionSeen };
/** A checkout session completed for the subscription, naming its organization (`client_reference_id`). */
export type StripeSubscriptionLinked = {
  type: 'StripeSubscriptionLinked';
  data: {
    eventId: string;
    created: number;
    subscriptionId: string;
    organizationId: string;
    customerId?: string | null;
  };
};
/** An invoice of the subscription was paid, or its payment failed. */
export type StripePaymentObserved = {
  type: 'StripePaymentObserved';
  data: {
    eventId: string;
    eventType: string;
    created: number;
    subscriptionId: string;
    paid: boolean;
    customerId?: string | null;
  };
};
export type StripeSubscriptionEvent = StripeSubscriptionObserved | StripeSubscriptionLinked | StripePaymentObserved;

export type StripeSubscriptionState = {
  eventIds: readonly string[];
  /** The newest subscription object seen, by `created`. */
  newest: StripeSubscriptionSeen | undefined;
  /** The organization a checkout session named, for subscriptions whose metadata does not. */
  linkedOrganizationId: string | null;
  /** The newest invoice outcome, by `created`. */
  payment: { created: number; paid: boolean } | undefined;
  /** Stripe's customer, as the last event that named one said (a subscription never changes customer). */
  customerId: string | null;
};

export const initialStripeSubscriptionState = (): StripeSubscriptionState => ({
  eventIds: [],
  newest: undefined,
  linkedOrganizationId: null,
  payment: undefined,
  customerId: null,
});

const ENDED = new Set(['canceled', 'unpaid', 'incomplete_expired', 'paused']);
const isEnded = (seen: StripeSubscriptionSeen): boolean =>
  seen.eventType === 'customer.subscription.deleted' || ENDED.has(seen.status);

/** Newer by Stripe's clock; at the same second, an ended subscription is the later state (Stripe never revives one). */
function isNewer(candidate: StripeSubscriptionSeen, newest: StripeSubscriptionSeen | undefined): boolean {
  if (newest === undefined || candidate.created > newest.created) return true;
  return candidate.created === newest.created && (isEnded(candidate) || !isEnded(newest));
}

export function evolveStripeSubscription(
  state: StripeSubscriptionState,
  event: StripeSubscriptionEvent,
): StripeSubscriptionState {
  const eventIds = [...state.eventIds, event.data.eventId];
  const customerId = event.data.customerId ?? state.customerId;
  switch (event.type) {
    case 'StripeSubscriptionObserved':
      return { ...state, eventIds, customerId, newest: isNewer(event.data, state.newest) ? event.data : state.newest };
    case 'StripeSubscriptionLinked':
      return { ...state, eventIds, customerId, linkedOrganizationId: event.data.organizationId };
    case 'StripePaymentObserved': {
      const newer = state.payment === undefined || event.data.created >= state.payment.created;
      return {
        ...state,
        eventIds,
        customerId,
        payment: newer ? { created: event.data.created, paid: event.data.paid } : state.payment,
      };
    }
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** Every event is recorded once, whatever its age: a redelivery, or a concurrent one, records nothing. */
export const decideStripeObservation = (
  state: StripeSubscriptionState,
  event: StripeSubscriptionEvent,
): StripeSubscriptionEvent[] => (state.eventIds.includes(event.data.eventId) ? [] : [event]);

/** The organization the subscription belongs to: its own metadata first, else the checkout session's. */
export const stripeOrganizationId = (state: StripeSubscriptionState): string | null =>
  state.newest?.organizationId ?? state.linkedOrganizationId;

export type UnmatchedReason =
  'NO_ORGANIZATION' | 'UNKNOWN_ORGANIZATION' | 'UNKNOWN_PRICE' | 'NO_SUBSCRIPTION' | 'FOREIGN_CUSTOMER';

/** What the organization must be brought to, or why the subscription cannot be matched (nothing is changed then). */
export type StripePlacement =
  | { kind: 'sync'; organizationId: string; data: SubscriptionTerms & SubscriptionItems & SubscriptionCustomer }
  | { kind: 'wait' }
  | { kind: 'unmatched'; reason: UnmatchedReason; detail: string };

const period = ({ periodStart, periodEnd }: StripeSubscriptionSeen) =>
  periodStart === null || periodEnd === null
    ? null
    : { start: new Date(periodStart * 1000).toISOString(), end: new Date(periodEnd * 1000).toISOString() };

const iso = (seconds: number | null): string | null =>
  seconds === null ? null : new Date(seconds * 1000).toISOString();

function status(state: StripeSubscriptionState, newest: StripeSubscriptionSeen): SubscriptionStatus | undefined {
  if (isEnded(newest)) return 'ended';
  const payment = state.payment;
  // An invoice event newer than the subscription object says more about the payment than its status.
  const paymentNewer = payment !== undefined && payment.created >= newest.created;
  switch (newest.status) {
    case 'trialing':
      return 'trialing';
    case 'active':
      return paymentNewer && !payment.paid ? 'past_due' : 'active';
    case 'past_due':
      return paymentNewer && payment.paid ? 'active' : 'past_due';
    default:
      // incomplete: the first payment is not made yet, so nothing is in force.
      return undefined;
  }
}

/**
 * The subscription's newest state in Chorus's terms, its items matched to the catalogue by product id, then price id.
 */
export function stripePlacement(state: StripeSubscriptionState, catalogue: PlanCatalogue): StripePlacement {
  const newest = state.newest;
  if (newest === undefined) return { kind: 'wait' };
  const organizationId = stripeOrganizationId(state);
  if (organizationId === null) {
    const detail = `Subscription ${newest.subscriptionId} has no metadata.organization_id and no checkout session named one.`;
    return { kind: 'unmatched', reason: 'NO_ORGANIZATION', detail };
  }
  const current = status(state, newest);
  if (current === undefined) return { kind: 'wait' };
  const items: SubscriptionItems = { plans: {}, addOns: {} };
  // An ended subscription brings nothing: its items need no match.
  for (const item of current === 'ended' ? [] : newest.items) {
    const product = resolveProduct(catalogue, item.productId) ?? resolveProduct(catalogue, item.priceId);
    if (product === undefined) {
      const detail = `Price ${item.priceId} (product ${item.productId}) is sold by no plan or add-on of the catalogue.`;
      return { kind: 'unmatched', reason: 'UNKNOWN_PRICE', detail };
    }
    if (product.kind === 'plan') items.plans[product.line] = product.plan;
    else items.addOns[product.addOn] = (items.addOns[product.addOn] ?? 0) + item.quantity;
  }
  const ended = current === 'ended';
  const endsOn = newest.cancelAtPeriodEnd ? (newest.cancelAt ?? newest.periodEnd) : newest.cancelAt;
  const data = {
    provider: 'stripe' as const,
    subscriptionId: newest.subscriptionId,
    status: current,
    trialEndsAt: current === 'trialing' ? iso(newest.trialEnd) : null,
    endsOn: ended ? null : iso(endsOn),
    currentPeriod: period(newest),
    endedAt: ended ? iso(newest.endedAt ?? newest.created) : null,
    createdAt: iso(newest.subscriptionCreated ?? null),
    customerId: state.customerId,
    ...items,
  };
  return { kind: 'sync', organizationId, data };
}

/** What of an organization says whose subscriptions may change it (its state). */
export type StripeCustomerHolder = {
  readonly id: string;
  /** The Stripe customer it is bound to (StripeCustomerBound); absent before its first subscription. */
  readonly stripeCustomerId?: string;
  readonly subscription?: Pick<SubscriptionTerms, 'subscriptionId' | 'status'>;
};

/**
 * Why the subscription is not the organization's to change (FOREIGN_CUSTOMER), or null when it is. The first
 * subscription placed on an organization binds it to that subscription's customer; another customer's never
 * changes it, whatever its checkout session (`client_reference_id`) or metadata name. An organization
 * subscribed before customers were bound is bound by its own subscription's next event: until then another
 * running subscription cannot be told from a stranger's.
 */
export function foreignCustomer(
  organization: StripeCustomerHolder,
  subscription: { subscriptionId: string; customerId: string | null; ended: boolean },
): string | null {
  const { subscriptionId, customerId } = subscription;
  const bound = organization.stripeCustomerId;
  if (bound !== undefined) {
    if (customerId === bound) return null;
    return `Subscription ${subscriptionId} is ${customerId === null ? 'of no customer' : `customer ${customerId}'s`}; organization ${organization.id} is bound to customer ${bound}.`;
  }
  const current = organization.subscription;
  if (
    current === undefined ||
    current.status === 'ended' ||
    current.subscriptionId === subscriptionId ||
    subscription.ended
  )
    return null;
  return `Organization ${organization.id} has subscription ${current.subscriptionId}, whose customer is not known yet: its next event binds the organization to it.`;
}

/**
 * Every Stripe event Chorus could not place, for operators (`chorus billing:unmatched`), each on a stream of its
 * own: keeping one reads that stream only, however many were kept before (one stream for all was read whole).
 */
export const stripeUnmatchedStreamPrefix = 'billing-stripe-unmatched-';
export const stripeUnmatchedStream = (eventId: string): string => `${stripeUnmatchedStreamPrefix}${eventId}`;
/** Where every unmatched event was kept before they had streams of their own: still listed, never written. */
export const STRIPE_UNMATCHED_STREAM = 'billing-stripe-unmatched';

export type StripeEventUnmatched = {
  type: 'StripeEventUnmatched';
  data: {
    eventId: string;
    eventType: string;
    created: number;
    subscriptionId: string | null;
    organizationId: string | null;
    reason: UnmatchedReason;
    detail: string;
  };
};

/** Whether the event's own stream holds it already. */
export type StripeUnmatchedState = { kept: boolean };

export const initialStripeUnmatchedState = (): StripeUnmatchedState => ({ kept: false });

export const evolveStripeUnmatched = (
  _state: StripeUnmatchedState,
  _event: StripeEventUnmatched,
): StripeUnmatchedState => ({ kept: true });

/** An event is kept once, however often Stripe delivers it. */
export const decideUnmatched = (state: StripeUnmatchedState, event: StripeEventUnmatched): StripeEventUnmatched[] =>
  state.kept ? [] : [event];

/** A subscription's stream: every Stripe event about it, each recorded once. */
export const stripeSubscriptionDecider: Decider<
  StripeSubscriptionState,
  { type: 'RecordStripeEvent'; data: StripeSubscriptionEvent },
  StripeSubscriptionEvent
> = {
  streamOf: stripeSubscriptionStream,
  initialState: initialStripeSubscriptionState(),
  evolve: evolveStripeSubscription,
  decide: (command, state) => decideStripeObservation(state, command.data),
};

/** An unmatched Stripe event's own stream (named after the event): kept once. */
export const stripeUnmatchedDecider: Decider<
  StripeUnmatchedState,
  { type: 'KeepUnmatchedStripeEvent'; data: StripeEventUnmatched },
  StripeEventUnmatched
> = {
  streamOf: stripeUnmatchedStream,
  initialState: initialStripeUnmatchedState(),
  evolve: evolveStripeUnmatched,
  decide: (command, state) => decideUnmatched(state, command.data),
};
