import {
  sameTerms,
  SUBSCRIPTION_STATUSES,
  withItem,
  withTerms,
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

/**
 * The payment provider's subscription as it now stands: its terms, and the plans and add-on units it pays
 * for (already matched to the catalogue). Sent after every provider event about it, in any order: the
 * caller sends the newest state it knows, and the decision records only what differs from the state.
 */
export type SyncSubscription = { type: 'SyncSubscription'; data: SubscriptionTerms & SubscriptionItems };

/** The subscription's status or dates changed (or another subscription took its place: previousStatus null). */
export type SubscriptionChanged = { type: 'SubscriptionChanged'; data: SubscriptionTerms & { previousStatus: SubscriptionStatus | null } };
/** The line has no plan any more (its subscription ended or dropped it): adds answer NO_PLAN; nothing in use is removed. */
export type PlanEnded = { type: 'PlanEnded'; data: { line: Line; plan: PlanName; subscriptionId?: string } };

type SubscriptionEvent = SubscriptionChanged | PlanAssigned | PlanEnded | AddOnPurchased | AddOnCancelled;

const isInstant = (value: unknown): boolean => typeof value === 'string' && !Number.isNaN(Date.parse(value));

function validated(data: SyncSubscription['data']): SyncSubscription['data'] {
  if (data.provider !== 'stripe') throw invalid('provider', 'not_allowed', 'provider must be stripe.');
  if (typeof data.subscriptionId !== 'string' || data.subscriptionId === '') throw invalid('subscriptionId', 'required', 'subscriptionId is required.');
  requireOneOf('status', data.status, SUBSCRIPTION_STATUSES);
  for (const field of ['trialEndsAt', 'endsOn', 'endedAt'] as const) {
    if (data[field] !== null && !isInstant(data[field])) throw invalid(field, 'invalid_format', `${field} must be a date-time or null.`);
  }
  if (data.currentPeriod !== null && !(isInstant(data.currentPeriod.start) && isInstant(data.currentPeriod.end))) {
    throw invalid('currentPeriod', 'invalid_format', 'currentPeriod must have a start and an end.');
  }
  for (const [addOn, units] of Object.entries(data.addOns)) {
    requireOneOf('addOns', addOn, ADD_ONS);
    if (!Number.isSafeInteger(units) || (units as number) < 0) throw invalid('addOns', 'out_of_range', 'add-on units must be counts.');
  }
  return data;
}

/**
 * Records what the subscription changed, relative to what it brought before: its terms when they differ,
 * a plan assigned or ended per line, add-on units bought or cancelled. An ended subscription ends the plans
 * it brought and cancels its units; members, sites and domains stay, so the organization may be over a
 * limit (adds are refused). A plan or add-on assigned by hand since is not the subscription's to end.
 * Another subscription takes the place of the current one, unless it is an old one ending.
 */
export function syncSubscription(command: SyncSubscription, state: ExistingOrganization): SubscriptionEvent[] {
  const { plans, addOns, ...terms } = validated(command.data);
  const { subscriptionId } = terms;
  const current = state.subscription;
  const same = current?.subscriptionId === subscriptionId;
  if (current !== undefined && !same && current.status !== 'ended' && terms.status === 'ended') return [];
  const events: SubscriptionEvent[] = [];
  if (current === undefined || !sameTerms(current, terms)) {
    events.push({ type: 'SubscriptionChanged', data: { ...terms, previousStatus: same ? current.status : null } });
  }
  const ended = terms.status === 'ended';
  for (const line of LINES) {
    const wanted = ended ? undefined : plans[line];
    const brought = current?.plans[line];
    if (wanted !== undefined && state.plans[line] !== wanted) {
      events.push({ type: 'PlanAssigned', data: { line, plan: wanted, subscriptionId } });
    } else if (wanted === undefined && brought !== undefined && state.plans[line] === brought) {
      events.push({ type: 'PlanEnded', data: { line, plan: brought, subscriptionId } });
    }
  }
  for (const addOn of ADD_ONS) {
    const delta = (ended ? 0 : (addOns[addOn] ?? 0)) - (current?.addOns[addOn] ?? 0);
    if (delta > 0) events.push({ type: 'AddOnPurchased', data: { addOn, quantity: delta, subscriptionId } });
    const cancelled = Math.min(-delta, state.addOns[addOn]);
    if (cancelled > 0) events.push({ type: 'AddOnCancelled', data: { addOn, quantity: cancelled, subscriptionId } });
  }
  return events;
}

export const withSubscriptionChanged = (state: ExistingOrganization, { data }: SubscriptionChanged): ExistingOrganization => ({
  ...state,
  subscription: withTerms(state.subscription, data),
});

/** A line other than classic or chorus changes nothing. */
export function withPlanEnded(state: ExistingOrganization, { data }: PlanEnded): ExistingOrganization {
  const { line, subscriptionId } = data;
  if (line !== 'classic' && line !== 'chorus') return state;
  const subscription = withItem(state.subscription, subscriptionId, { line, plan: null });
  return { ...state, plans: { ...state.plans, [line]: null }, ...(subscription && { subscription }) };
}
