import { invalid } from '../command-validation.js';
import type { ExistingOrganization } from '../state.js';

/** The provider says the subscription's trial ends soon: recorded (and so mailed) once per trial end. */
export type NoteTrialEnding = { type: 'NoteTrialEnding'; data: { subscriptionId: string; trialEndsAt: string } };

/** The provider announced the trial's end (a few days before it): the owners are told once per trial end. */
export type SubscriptionTrialEnding = {
  type: 'SubscriptionTrialEnding';
  data: { subscriptionId: string; trialEndsAt: string };
};

export function noteTrialEnding(command: NoteTrialEnding, state: ExistingOrganization): SubscriptionTrialEnding[] {
  const { subscriptionId, trialEndsAt } = command.data;
  if (typeof trialEndsAt !== 'string' || Number.isNaN(Date.parse(trialEndsAt)))
    throw invalid('trialEndsAt', 'invalid_format', 'trialEndsAt must be a date-time.');
  const subscription = state.subscription;
  // Only the subscription in force, still in its trial, and not told about this end yet.
  if (
    subscription?.subscriptionId !== subscriptionId ||
    subscription.status !== 'trialing' ||
    subscription.trialEndingNoted === trialEndsAt
  )
    return [];
  return [{ type: 'SubscriptionTrialEnding', data: { subscriptionId, trialEndsAt } }];
}

/** Noted on the subscription it names; another subscription's trial changes nothing. */
export const withSubscriptionTrialEnding = (
  state: ExistingOrganization,
  { data }: SubscriptionTrialEnding,
): ExistingOrganization =>
  state.subscription?.subscriptionId === data.subscriptionId
    ? { ...state, subscription: { ...state.subscription, trialEndingNoted: data.trialEndsAt } }
    : state;
