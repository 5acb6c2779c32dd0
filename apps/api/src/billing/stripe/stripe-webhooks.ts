// A verified Stripe event (docs/billing.md). Every step is safe to repeat: redeliveries, concurrent ones, or one after
// a
// crash all end in the same state with each change recorded once.
import { isDeepStrictEqual } from 'node:util';
import { Inject, Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { handleCommand, loadStream, type CommandContext } from '#application';
import {
  foreignCustomer,
  stripeOrganizationId,
  stripePlacement,
  stripeSubscriptionDecider,
  stripeUnmatchedDecider,
  type PlanCatalogue,
  type StripeEventUnmatched,
  type StripePlacement,
  type StripeSubscriptionState,
  type UnmatchedReason,
} from '#domain';
import { EVENT_STORE, type EventStore } from '#event-store';
import { ChorusMetrics } from '../../metrics/chorus-metrics.js';
import type { CommandResult } from '../../organizations/command-result.js';
import { Organizations } from '../../organizations/organizations.service.js';
import { PLAN_CATALOGUE } from '../../plans/plan-catalogue.module.js';
import { STRIPE_EVENT_TYPES, stripeObservation } from './stripe-event.js';

/**
 * unchanged: already in that state (a redelivery, an older event); recorded: nothing in force yet; unmatched: kept for
 * operators.
 */
export type StripeOutcome = 'applied' | 'unchanged' | 'recorded' | 'unmatched' | 'ignored';

export type StripeReceipt = {
  id: string;
  type: string;
  outcome: StripeOutcome;
  duplicate: boolean;
  organizationId: string | null;
  position: bigint | null;
};

const handled = new Set<string>(STRIPE_EVENT_TYPES);

/** Each round follows a newer event that landed meanwhile; Stripe's events of one subscription are minutes apart. */
const MAX_SYNC_ROUNDS = 5;

type SyncPlacement = Extract<StripePlacement, { kind: 'sync' }>;

@Injectable()
export class StripeWebhooks {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    private readonly organizations: Organizations,
    private readonly metrics: ChorusMetrics,
  ) {}

  async receive(event: Stripe.Event): Promise<StripeReceipt> {
    const receipt = { id: event.id, type: event.type, duplicate: false, organizationId: null, position: null };
    if (!handled.has(event.type)) return { ...receipt, outcome: 'ignored' };
    const origin = { stripeEventId: event.id, stripeEventType: event.type };
    const context: CommandContext = { actor: 'stripe', correlationId: event.id, causationId: event.id, origin };
    const observation = stripeObservation(event);
    if (observation.event === null || observation.subscriptionId === null) {
      return this.unmatched(event, observation, 'NO_SUBSCRIPTION', 'The event names no subscription.', context);
    }
    const { subscriptionId } = observation;
    const recorded = await handleCommand(
      this.store,
      stripeSubscriptionDecider,
      subscriptionId,
      { type: 'RecordStripeEvent', data: observation.event },
      context,
    );
    const duplicate = recorded.appended.length === 0;
    const placement = stripePlacement(recorded.state, this.catalogue);
    if (placement.kind === 'wait') {
      const foreign = await this.foreignWhileWaiting(recorded.state, observation.subscriptionId);
      const organizationId = stripeOrganizationId(recorded.state);
      if (foreign !== null)
        return this.unmatched(
          event,
          { ...observation, organizationId },
          'FOREIGN_CUSTOMER',
          foreign,
          context,
          duplicate,
        );
      return { ...receipt, duplicate, outcome: 'recorded', position: recorded.position ?? null };
    }
    if (placement.kind === 'unmatched')
      return this.unmatched(event, observation, placement.reason, placement.detail, context, duplicate);
    const { state, revision: before } = await this.organizations.load(placement.organizationId);
    if (!state.exists) {
      return this.unmatched(
        event,
        observation,
        'UNKNOWN_ORGANIZATION',
        `There is no organization ${placement.organizationId}.`,
        context,
        duplicate,
      );
    }
    const synced = await this.sync(subscriptionId, placement, context);
    if ('foreign' in synced) {
      return this.unmatched(
        event,
        { ...observation, organizationId: placement.organizationId },
        'FOREIGN_CUSTOMER',
        synced.foreign,
        context,
        duplicate,
      );
    }
    let result = synced;
    if (event.type === 'customer.subscription.trial_will_end' && placement.data.trialEndsAt !== null) {
      const { subscriptionId, trialEndsAt } = placement.data;
      result = await this.organizations.handle(
        placement.organizationId,
        { type: 'NoteTrialEnding', data: { subscriptionId, trialEndsAt } },
        context,
      );
    }
    const outcome = result.revision === before ? 'unchanged' : 'applied';
    return { ...receipt, duplicate, outcome, organizationId: placement.organizationId, position: result.position };
  }

  /**
   * A newer event may be applied meanwhile: the stream is read again after each write, so the organization ends in the
   * newest state.
   */
  private async sync(
    subscriptionId: string,
    first: SyncPlacement,
    context: CommandContext,
  ): Promise<CommandResult | { foreign: string }> {
    let placement = first;
    for (let round = 1; ; round += 1) {
      const { result, foreign } = await this.syncOnce(placement, context);
      if (foreign !== null) return { foreign };
      const now = stripePlacement(
        (await loadStream(this.store, stripeSubscriptionDecider, subscriptionId)).state,
        this.catalogue,
      );
      if (now.kind !== 'sync' || isDeepStrictEqual(now, placement) || round >= MAX_SYNC_ROUNDS) return result;
      placement = now;
    }
  }

  /** `foreign`: why the organization is not this subscription's to change (the decision then records nothing). */
  private async syncOnce(
    { organizationId, data }: SyncPlacement,
    context: CommandContext,
  ): Promise<{ result: CommandResult; foreign: string | null }> {
    const subscription = {
      subscriptionId: data.subscriptionId,
      customerId: data.customerId ?? null,
      ended: data.status === 'ended',
    };
    const handled = await this.organizations.decideOn(organizationId, { type: 'SyncSubscription', data }, context);
    const { state } = handled;
    const foreign = handled.appended.length === 0 && state.exists ? foreignCustomer(state, subscription) : null;
    return {
      result: { id: organizationId, revision: handled.revision ?? -1n, position: handled.position ?? -1n },
      foreign,
    };
  }

  private async foreignWhileWaiting(
    subscription: StripeSubscriptionState,
    subscriptionId: string,
  ): Promise<string | null> {
    const organizationId = stripeOrganizationId(subscription);
    if (organizationId === null) return null;
    const { state } = await this.organizations.load(organizationId);
    return state.exists
      ? foreignCustomer(state, { subscriptionId, customerId: subscription.customerId, ended: false })
      : null;
  }

  /** 2xx all the same, since a retry cannot place it either. */
  private async unmatched(
    event: Stripe.Event,
    observation: { subscriptionId: string | null; organizationId: string | null },
    reason: UnmatchedReason,
    detail: string,
    context: CommandContext,
    duplicate = false,
  ): Promise<StripeReceipt> {
    const { subscriptionId, organizationId } = observation;
    const unmatched: StripeEventUnmatched = {
      type: 'StripeEventUnmatched',
      data: {
        eventId: event.id,
        eventType: event.type,
        created: event.created,
        subscriptionId,
        organizationId,
        reason,
        detail,
      },
    };
    const kept = await handleCommand(
      this.store,
      stripeUnmatchedDecider,
      event.id,
      { type: 'KeepUnmatchedStripeEvent', data: unmatched },
      context,
    );
    if (kept.appended.length > 0) this.metrics.stripeUnmatched.inc({ reason });
    return {
      id: event.id,
      type: event.type,
      outcome: 'unmatched',
      duplicate: duplicate || kept.appended.length === 0,
      organizationId: null,
      position: kept.position ?? null,
    };
  }
}
