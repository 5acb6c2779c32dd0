// The organizations' write path: the commands the routes send, their handlers, and Organizations.
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  memberRequester,
  operator,
  organizationDecider,
  organizationStream,
  type Decider,
  type MemberRole,
  type OrganizationCommand,
  type OrganizationCommandOf,
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
  type HandledCommand,
  type LoadedStream,
} from '#application';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import { UserDirectory } from '#identity';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import type { CommandResult } from './command-result.js';
import { invitationOwedMark } from './member-invitations.js';

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

  /** Throws the refusal. Only for a step between an accepted decision and its record (a new member's id reserved). */
  wouldRecord(command: OrganizationCommand, state: OrganizationState, context: CommandContext): boolean {
    return this.decider.decide({ ...command, requester: requesterOf(context) }, state).length > 0;
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

/** Any domain command, decided as is; commands whose handler chooses or resolves ids have their own class. */
export class ChangeOrganizationCommand extends Command<CommandResult> {
  constructor(
    readonly organizationId: string,
    readonly change: OrganizationCommand,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(ChangeOrganizationCommand)
export class ChangeOrganizationHandler implements ICommandHandler<ChangeOrganizationCommand> {
  constructor(private readonly organizations: Organizations) {}

  execute({ organizationId, change, context }: ChangeOrganizationCommand): Promise<CommandResult> {
    return this.organizations.handle(organizationId, change, context);
  }
}

export class CreateOrganizationCommand extends Command<CommandResult> {
  constructor(
    readonly organization: { id?: string; name: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(CreateOrganizationCommand)
export class CreateOrganizationHandler implements ICommandHandler<CreateOrganizationCommand> {
  constructor(private readonly organizations: Organizations) {}

  execute({ organization, context }: CreateOrganizationCommand): Promise<CommandResult> {
    const id = organization.id ?? randomUUID();
    return this.organizations.handle(
      id,
      { type: 'CreateOrganization', data: { id, name: organization.name } },
      context,
    );
  }
}

export class AddSiteCommand extends Command<CommandResult & { siteId: string }> {
  constructor(
    readonly organizationId: string,
    /** hostname as typed: the domain normalizes it. */
    readonly site: { name: string; hostname: string },
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(AddSiteCommand)
export class AddSiteHandler implements ICommandHandler<AddSiteCommand> {
  constructor(private readonly organizations: Organizations) {}

  async execute({ organizationId, site, context }: AddSiteCommand): Promise<CommandResult & { siteId: string }> {
    const siteId = randomUUID();
    const result = await this.organizations.handle(
      organizationId,
      { type: 'AddSite', data: { siteId, ...site } },
      context,
    );
    return { ...result, siteId };
  }
}

export type NewMember = {
  email: string;
  role: MemberRole;
  chorusUser?: boolean;
  /**
   * Known to callers that have just created the user; otherwise the address's id from the UserDirectory (reserved when
   * new).
   */
  userId?: string;
  /** MemberAdded's metadata then says `invitation: 'owed'`, and the invitation reaction mails it. */
  invite?: boolean;
};

export type AddedMemberResult = CommandResult & { userId: string; invitationOwed: boolean };

export class AddMemberCommand extends Command<AddedMemberResult> {
  constructor(
    readonly organizationId: string,
    readonly member: NewMember,
    readonly context: CommandContext,
  ) {
    super();
  }
}

@CommandHandler(AddMemberCommand)
export class AddMemberHandler implements ICommandHandler<AddMemberCommand> {
  constructor(
    private readonly organizations: Organizations,
    private readonly users: UserDirectory,
  ) {}

  async execute({ organizationId, member, context }: AddMemberCommand): Promise<AddedMemberResult> {
    const { email, role, chorusUser } = member;
    const addMember = (userId: string): OrganizationCommandOf<'AddMember'> => ({
      type: 'AddMember',
      data: chorusUser === undefined ? { userId, email, role } : { userId, email, role, chorusUser },
    });
    const invitationOwed = member.invite === true;
    const marked = invitationOwed ? { ...context, origin: { ...context.origin, ...invitationOwedMark } } : context;
    const existing = member.userId ?? (await this.users.idOfEmail(email));
    if (existing !== undefined)
      return {
        ...(await this.organizations.handle(organizationId, addMember(existing), marked)),
        userId: existing,
        invitationOwed,
      };
    // A new address's id is reserved only once the add would be accepted, and before it is recorded on that same loaded
    // state.
    let userId: string = randomUUID();
    for (;;) {
      const loaded = await this.organizations.load(organizationId);
      if (this.organizations.wouldRecord(addMember(userId), loaded.state, context)) {
        const held = await this.users.reserveIdForEmail(email, userId, context);
        // Someone reserved or registered the address meanwhile: the member is theirs.
        if (held !== userId) {
          userId = held;
          continue;
        }
      }
      const result = await this.organizations.handle(organizationId, addMember(userId), marked, { known: loaded });
      return { ...result, userId, invitationOwed };
    }
  }
}
