import { chorusOnForPaidPlan } from '../../billing/paid-chorus-plan.js';
import { foreignCustomer } from '../../billing/stripe-subscription.js';
import {
  sameTerms,
  SUBSCRIPTION_STATUSES,
  withItem,
  withTerms,
  type SubscriptionCustomer,
  type SubscriptionItems,
  type SubscriptionStatus,
  type SubscriptionTerms,
} from '../../billing/subscription.js';
import type { Line, PlanName } from '../../plans/catalogue.js';
import { ADD_ONS, LINES } from '../../plans/plan-lines.js';
import { invalid, requireOneOf } from '../command-validation.js';
import type { ExistingOrganization } from '../state.js';
import type { AddOnCancelled } from './cancel-add-on.js';
import type { AddOnPurchased } from './purchase-add-on.js';
import type { PlanAssigned } from './assign-plan.js';
import type { ChorusEnabled } from './enable-chorus.js';

/** Sent after every provider event, in any order: the decision records only what differs from the state. */
export type SyncSubscription = {
  type: 'SyncSubscription';
  data: SubscriptionTerms & SubscriptionItems & SubscriptionCustomer;
};

/** previousStatus null: another subscription took its place. */
export type SubscriptionChanged = {
  type: 'SubscriptionChanged';
  data: SubscriptionTerms & { previousStatus: SubscriptionStatus | null };
};
/** Nothing in use is removed; adds answer NO_PLAN. */
export type PlanEnded = { type: 'PlanEnded'; data: { line: Line; plan: PlanName; subscriptionId?: string } };
/** Bound by the first subscription: another customer's subscriptions never change the organization. */
export type StripeCustomerBound = { type: 'StripeCustomerBound'; data: { customerId: string } };

type SubscriptionEvent =
  | StripeCustomerBound
  | SubscriptionChanged
  | PlanAssigned
  | ChorusEnabled
  | PlanEnded
  | AddOnPurchased
  | AddOnCancelled;

const isInstant = (value: unknown): boolean => typeof value === 'string' && !Number.isNaN(Date.parse(value));

function validated(data: SyncSubscription['data']): SyncSubscription['data'] {
  if (data.provider !== 'stripe') throw invalid('provider', 'not_allowed', 'provider must be stripe.');
  if (typeof data.subscriptionId !== 'string' || data.subscriptionId === '')
    throw invalid('subscriptionId', 'required', 'subscriptionId is required.');
  const { customerId } = data;
  if (customerId !== undefined && customerId !== null && (typeof customerId !== 'string' || customerId === '')) {
    throw invalid('customerId', 'invalid_format', 'customerId must be an id or null.');
  }
  requireOneOf('status', data.status, SUBSCRIPTION_STATUSES);
  for (const field of ['trialEndsAt', 'endsOn', 'endedAt'] as const) {
    if (data[field] !== null && !isInstant(data[field]))
      throw invalid(field, 'invalid_format', `${field} must be a date-time or null.`);
  }
  if (data.createdAt !== undefined && data.createdAt !== null && !isInstant(data.createdAt)) {
    throw invalid('createdAt', 'invalid_format', 'createdAt must be a date-time or null.');
  }
  if (data.currentPeriod !== null && !(isInstant(data.currentPeriod.start) && isInstant(data.currentPeriod.end))) {
    throw invalid('currentPeriod', 'invalid_format', 'currentPeriod must have a start and an end.');
  }
  for (const [addOn, units] of Object.entries(data.addOns)) {
    requireOneOf('addOns', addOn, ADD_ONS);
    if (!Number.isSafeInteger(units) || (units as number) < 0)
      throw invalid('addOns', 'out_of_range', 'add-on units must be counts.');
  }
  return data;
}

/** Ties go to the greater id, so that every order of delivery agrees. */
function isNewerSubscription(candidate: SubscriptionTerms, current: SubscriptionTerms): boolean {
  const [created, currentCreated] = [candidate.createdAt ?? null, current.createdAt ?? null];
  if (created === null || currentCreated === null) return true;
  const [at, currentAt] = [Date.parse(created), Date.parse(currentCreated)];
  return at > currentAt || (at === currentAt && candidate.subscriptionId > current.subscriptionId);
}

/**
 * An ending keeps members, sites and domains, so the organization may be over a limit. A plan or add-on
 * assigned by hand since is not the subscription's to end.
 */
export function syncSubscription(command: SyncSubscription, state: ExistingOrganization): SubscriptionEvent[] {
  const { plans, addOns, customerId = null, ...terms } = validated(command.data);
  const { subscriptionId } = terms;
  const current = state.subscription;
  const same = current?.subscriptionId === subscriptionId;
  const ending = terms.status === 'ended';
  if (foreignCustomer(state, { subscriptionId, customerId, ended: ending }) !== null) return [];
  if (
    !same &&
    (ending || (current !== undefined && current.status !== 'ended' && !isNewerSubscription(terms, current)))
  )
    return [];
  const events: SubscriptionEvent[] = [];
  if (state.stripeCustomerId === undefined && customerId !== null)
    events.push({ type: 'StripeCustomerBound', data: { customerId } });
  if (current === undefined || !sameTerms(current, terms)) {
    events.push({ type: 'SubscriptionChanged', data: { ...terms, previousStatus: same ? current.status : null } });
  }
  for (const line of LINES) {
    const wanted = ending ? undefined : plans[line];
    const brought = current?.plans[line];
    if (wanted !== undefined && state.plans[line] !== wanted) {
      events.push({ type: 'PlanAssigned', data: { line, plan: wanted, subscriptionId } });
    } else if (wanted === undefined && brought !== undefined && state.plans[line] === brought) {
      events.push({ type: 'PlanEnded', data: { line, plan: brought, subscriptionId } });
    }
  }
  events.push(...chorusOnForPaidPlan(state, events));
  for (const addOn of ADD_ONS) {
    const delta = (ending ? 0 : (addOns[addOn] ?? 0)) - (current?.addOns[addOn] ?? 0);
    if (delta > 0) events.push({ type: 'AddOnPurchased', data: { addOn, quantity: delta, subscriptionId } });
    const cancelled = Math.min(-delta, state.addOns[addOn]);
    if (cancelled > 0) events.push({ type: 'AddOnCancelled', data: { addOn, quantity: cancelled, subscriptionId } });
  }
  return events;
}

export const withSubscriptionChanged = (
  state: ExistingOrganization,
  { data }: SubscriptionChanged,
): ExistingOrganization => ({
  ...state,
  subscription: withTerms(state.subscription, data),
});

export const withStripeCustomerBound = (
  state: ExistingOrganization,
  { data }: StripeCustomerBound,
): ExistingOrganization => ({
  ...state,
  stripeCustomerId: data.customerId,
});

export function withPlanEnded(state: ExistingOrganization, { data }: PlanEnded): ExistingOrganization {
  const { line, subscriptionId } = data;
  if (line !== 'classic' && line !== 'chorus') return state;
  const subscription = withItem(state.subscription, subscriptionId, { line, plan: null });
  return { ...state, plans: { ...state.plans, [line]: null }, ...(subscription && { subscription }) };
}
