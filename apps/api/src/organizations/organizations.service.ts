// Organizations: where every organization command is decided (docs/service.md, Organization commands).
import { Inject, Injectable } from '@nestjs/common';
import {
  memberRequester,
  operator,
  organizationDecider,
  organizationStream,
  type Decider,
  type OrganizationCommand,
  type OrganizationEvent,
  type OrganizationState,
  type PlanCatalogue,
  type RequestedOrganizationCommand,
  type Requester,
} from '#domain';
import {
  FoldedStateCache,
  handleCommand,
  loadStream,
  type CommandContext,
  type DecisionReads,
  type StreamChange,
  type HandledCommand,
  type LoadedStream,
} from '#application';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import type { CommandResult } from './command-result.js';

export const DEFAULT_CACHED_ORGANIZATIONS = 10_000;

export class OrganizationStateCache extends FoldedStateCache<OrganizationState> {
  constructor(capacity: number = DEFAULT_CACHED_ORGANIZATIONS) {
    super(capacity);
  }
}

export const asOrganizationEvent = (event: RecordedEvent): OrganizationEvent =>
  ({ type: event.type, data: event.data }) as OrganizationEvent;

export type HandleOptions = { known?: LoadedStream<OrganizationState> };
type State = OrganizationState;

/**
 * `user:<id>` is held to the member's roles (as the events record it); anyone else is an operator, checked before by
 * scopes or CLI access.
 */
export function requesterOf(context: Pick<CommandContext, 'actor'>): Requester {
  return context.actor.startsWith('user:') ? memberRequester(context.actor.slice('user:'.length)) : operator;
}

/** An organization in a decision over several streams; its commands are decided as the decision's requester. */
export type OrganizationForDecision = LoadedStream<OrganizationState> & {
  decide(command: OrganizationCommand): StreamChange;
  decideAll(commands: readonly OrganizationCommand[]): StreamChange;
};

/** The one place organization commands are decided (docs/service.md, Organization commands). */
@Injectable()
export class Organizations {
  readonly decider: Decider<OrganizationState, RequestedOrganizationCommand, OrganizationEvent>;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly cache: OrganizationStateCache,
    @Inject(PLAN_CATALOGUE) catalogue: PlanCatalogue,
  ) {
    this.decider = organizationDecider(catalogue);
  }

  load(organizationId: string): Promise<LoadedStream<OrganizationState>> {
    return loadStream(this.store, this.decider, organizationId, { cache: this.cache });
  }

  /**
   * For what a reaction shows, never for a decision: the cached fold when it has reached `revision` (no read), else a
   * load.
   */
  async loadAsOf(organizationId: string, revision: bigint): Promise<OrganizationState> {
    const cached = this.cache.get(organizationStream(organizationId));
    if (cached !== undefined && cached.revision >= revision) return cached.state;
    return (await this.load(organizationId)).state;
  }

  /**
   * `known`: the organization as the caller just loaded it. Metadata a reaction reads travels in the context's origin.
   */
  async handle(
    organizationId: string,
    command: OrganizationCommand,
    context: CommandContext,
    options: HandleOptions = {},
  ): Promise<CommandResult> {
    const handled = await this.decideOn(organizationId, command, context, options);
    // A decision on an organization that does not exist is a refusal (or its creation), so both are set.
    return { id: organizationId, revision: handled.revision ?? -1n, position: handled.position ?? -1n };
  }

  /**
   * The organization's stream in a decision over several streams: read through this node's cache, and its commands
   * decided as the context's requester (handleDecision appends them with the decision's other changes).
   */
  async readFor(
    reads: DecisionReads,
    organizationId: string,
    context: CommandContext,
  ): Promise<OrganizationForDecision> {
    const stream = await reads.stream(this.decider, organizationId, { cache: this.cache });
    const requester = requesterOf(context);
    return {
      ...stream,
      decide: (command) => stream.decide({ ...command, requester }),
      decideAll: (commands) => stream.decideAll(commands.map((command) => ({ ...command, requester }))),
    };
  }

  decideOn(
    organizationId: string,
    command: OrganizationCommand,
    context: CommandContext,
    options: HandleOptions = {},
  ): Promise<HandledCommand<State>> {
    const requested = { ...command, requester: requesterOf(context) };
    return handleCommand(this.store, this.decider, organizationId, requested, context, {
      cache: this.cache,
      known: options.known,
    });
  }
}
