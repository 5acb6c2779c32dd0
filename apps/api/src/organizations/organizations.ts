import { Inject, Injectable } from '@nestjs/common';
import {
  decide,
  evolve,
  initialOrganizationState,
  memberRequester,
  operator,
  organizationStream,
  type OrganizationCommand,
  type OrganizationEvent,
  type OrganizationState,
  type PlanCatalogue,
  type Requester,
} from '#domain';
import { eventMetadata, FoldedStateCache, handleCommand, loadStream, type CommandContext, type LoadedStream, type StreamFold } from '#application';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import type { CommandResult } from './command-result.js';

export const DEFAULT_CACHED_ORGANIZATIONS = 10_000;

/** The organizations' folded states (least recently used first out, never trusted on its own: see FoldedStateCache). */
export class OrganizationStateCache extends FoldedStateCache<OrganizationState> {
  constructor(capacity: number = DEFAULT_CACHED_ORGANIZATIONS) {
    super(capacity);
  }
}

/** A stored event of an organization stream, as the domain folds it (the store keeps only what evolve wrote). */
export const asOrganizationEvent = (event: RecordedEvent): OrganizationEvent => ({ type: event.type, data: event.data }) as OrganizationEvent;

export type HandleOptions = { known?: LoadedStream<OrganizationState>; marks?: Readonly<Record<string, string>> };

/**
 * A decision that needs a step of its own besides the state (adding a member by address reserves the
 * address's id once the add is accepted): `decideOn` is the domain's decide for this requester.
 */
export type OrganizationDecision = (
  state: OrganizationState,
  decideOn: (command: OrganizationCommand) => OrganizationEvent[],
) => OrganizationEvent[] | Promise<OrganizationEvent[]>;

/** How an organization stream becomes its state: the domain's own evolve. */
export const organizationFold: StreamFold<OrganizationState, OrganizationEvent> = {
  initialState: initialOrganizationState,
  evolve,
  read: asOrganizationEvent,
};

/**
 * Who the domain holds to the organization's roles: the user an actor `user:<id>` names (the actor the
 * events record, so the rule and the audit trail never disagree); anyone else is an operator, whose
 * API key scopes or command-line access were checked before.
 */
export function requesterOf(context: Pick<CommandContext, 'actor'>): Requester {
  return context.actor.startsWith('user:') ? memberRequester(context.actor.slice('user:'.length)) : operator;
}

/**
 * Organizations as their streams say, and the one place their commands are decided: `handleCommand`
 * through the state cache, with the domain's `decide` (see README.md, Organization commands).
 */
@Injectable()
export class Organizations {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly cache: OrganizationStateCache,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
  ) {}

  load(organizationId: string): Promise<LoadedStream<OrganizationState>> {
    return loadStream(this.store, organizationStream(organizationId), { ...organizationFold, cache: this.cache });
  }

  /**
   * The organization as of `revision` of its stream or later: the cached fold when it has got that far
   * (no read: what this node appended or read itself), else a load. For what a reaction to the event at
   * `revision` shows (an invitation's organization name), never for a decision.
   */
  async loadAsOf(organizationId: string, revision: bigint): Promise<OrganizationState> {
    const cached = this.cache.get(organizationStream(organizationId));
    if (cached !== undefined && cached.revision >= revision) return cached.state;
    return (await this.load(organizationId)).state;
  }

  /**
   * Decides the command on the organization's current state and records its events (none when nothing changes).
   * `known`: the organization as the caller just loaded it; `marks`: metadata its events carry for a reaction.
   */
  handle(organizationId: string, command: OrganizationCommand, context: CommandContext, options: HandleOptions = {}): Promise<CommandResult> {
    return this.handleDecision(organizationId, command.type, (_state, decideOn) => decideOn(command), context, options);
  }

  /** `handle` for a decision with a step of its own, run again with the decision when the append loses a race. */
  async handleDecision(
    organizationId: string,
    commandType: OrganizationCommand['type'],
    decision: OrganizationDecision,
    context: CommandContext,
    options: HandleOptions = {},
  ): Promise<CommandResult> {
    const { known, marks } = options;
    const decideContext = { catalogue: this.catalogue, requester: requesterOf(context) };
    const decided = (state: OrganizationState) => decision(state, (command) => decide(command, state, decideContext));
    const metadata = eventMetadata(context, commandType);
    const handled = await handleCommand(this.store, organizationStream(organizationId), decided, {
      ...organizationFold,
      cache: this.cache,
      metadata: marks === undefined ? metadata : { ...metadata, ...marks },
      ...(known === undefined ? {} : { known }),
    });
    // A decision on an organization that does not exist is a refusal (or its creation), so both are set.
    return { id: organizationId, revision: handled.revision ?? -1n, position: handled.position ?? -1n };
  }

  /**
   * The organization as loaded, once the command would be accepted now from this requester: else its refusal (a
   * DomainError) is thrown. Records nothing. Answers the organization as loaded, for a `handle` that follows to decide on first (`known`).
   */
  async loadIfAccepted(organizationId: string, command: OrganizationCommand, context: CommandContext): Promise<LoadedStream<OrganizationState>> {
    const loaded = await this.load(organizationId);
    decide(command, loaded.state, { catalogue: this.catalogue, requester: requesterOf(context) });
    return loaded;
  }
}
