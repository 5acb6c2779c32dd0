// The organization's subscription with the payment provider, as Chorus keeps it: its status and dates
// (shown to owners, and the billing period that traffic is counted in), and what it pays for (the plans
// and add-on units it brought), so that a change of the subscription records only what changed.
import type { AddOn, Line, PlanName } from '../plans/catalogue.js';

/** `ended`: deleted, or canceled, unpaid or expired at the provider: its plans and add-ons no longer apply. */
export type SubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'ended';

export const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'ended'];

export type BillingPeriod = { start: string; end: string };

/**
 * The subscription's status and dates (ISO date-times). endsOn: a cancellation at the end of the period is scheduled.
 */
export type SubscriptionTerms = {
  provider: 'stripe';
  subscriptionId: string;
  status: SubscriptionStatus;
  trialEndsAt: string | null;
  endsOn: string | null;
  currentPeriod: BillingPeriod | null;
  endedAt: string | null;
  /**
   * When the provider created the subscription: of two running ones, the newer governs. Absent in events recorded
   * before it was read.
   */
  createdAt?: string | null;
};

/** Whose subscription it is at the provider (Stripe's customer id); null or absent when the provider named none. */
export type SubscriptionCustomer = { customerId?: string | null };

/** What a subscription pays for: a plan per line, and units per add-on. */
export type SubscriptionItems = { plans: Partial<Record<Line, PlanName>>; addOns: Partial<Record<AddOn, number>> };

/** The subscription in the organization's state; trialEndingNoted: the trial end owners were last told about. */
export type OrganizationSubscription = SubscriptionTerms & SubscriptionItems & { trialEndingNoted: string | null };

const TERMS: readonly (keyof SubscriptionTerms)[] = [
  'provider',
  'subscriptionId',
  'status',
  'trialEndsAt',
  'endsOn',
  'endedAt',
];

export function sameTerms(a: SubscriptionTerms, b: SubscriptionTerms): boolean {
  return (
    TERMS.every((key) => a[key] === b[key]) &&
    (a.createdAt ?? null) === (b.createdAt ?? null) &&
    a.currentPeriod?.start === b.currentPeriod?.start &&
    a.currentPeriod?.end === b.currentPeriod?.end
  );
}

/**
 * The subscription after its terms changed; the items it brought carry over, also to a subscription that takes its
 * place.
 */
export function withTerms(
  current: OrganizationSubscription | undefined,
  terms: SubscriptionTerms,
): OrganizationSubscription {
  const { previousStatus: _, ...only } = terms as SubscriptionTerms & { previousStatus?: unknown };
  return {
    plans: current?.plans ?? {},
    addOns: current?.addOns ?? {},
    trialEndingNoted: current?.trialEndingNoted ?? null,
    ...only,
  };
}

/** The subscription after an item event it caused (`subscriptionId` its own); any other event leaves it as it is. */
export function withItem(
  current: OrganizationSubscription | undefined,
  subscriptionId: string | undefined,
  change: { line: Line; plan: PlanName | null } | { addOn: AddOn; delta: number },
): OrganizationSubscription | undefined {
  if (current === undefined || subscriptionId !== current.subscriptionId) return current;
  if ('line' in change) {
    const plans = { ...current.plans };
    if (change.plan === null) delete plans[change.line];
    else plans[change.line] = change.plan;
    return { ...current, plans };
  }
  const units = Math.max(0, (current.addOns[change.addOn] ?? 0) + change.delta);
  const addOns = { ...current.addOns };
  if (units === 0) delete addOns[change.addOn];
  else addOns[change.addOn] = units;
  return { ...current, addOns };
}

/**
 * Where the organization's traffic month starts: its running subscription's period start, else the calendar month
 * (null).
 */
export const trafficAnchor = (
  subscription: Pick<SubscriptionTerms, 'status' | 'currentPeriod'> | null | undefined,
): string | null =>
  subscription === null || subscription === undefined || subscription.status === 'ended'
    ? null
    : (subscription.currentPeriod?.start ?? null);
