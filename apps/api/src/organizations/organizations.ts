// The organizations' write path in one place: the commands the routes send, their handlers (the three that
// choose or resolve an id first, and the one that carries any other domain command), and Organizations,
// which loads, decides and appends through handleCommand with the state cache.
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  decide,
  evolve,
  initialOrganizationState,
  memberRequester,
  operator,
  organizationStream,
  type MemberRole,
  type OrganizationCommand,
  type OrganizationCommandOf,
  type OrganizationEvent,
  type OrganizationState,
  type PlanCatalogue,
  type Requester,
} from '#domain';
import { eventMetadata, FoldedStateCache, handleCommand, loadStream, type CommandContext, type LoadedStream, type StreamFold } from '#application';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '#event-store';
import type { UserDirectory } from '#identity';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import type { CommandResult } from './command-result.js';
import { invitationOwedMark } from './member-invitations.js';
import { USER_DIRECTORY } from './user-directory.js';

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

// The commands the routes send, each with its handler.

/**
 * Any command of the domain on an existing organization, decided as it is:
 * `new ChangeOrganizationCommand(id, { type: 'AssignPlan', data: { line, plan } }, context)`.
 * Commands whose handler has work of its own (choosing or resolving ids) have their own class.
 */
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

/** Creates an organization under the given id, or a new uuid (OrganizationCreated). */
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
    return this.organizations.handle(id, { type: 'CreateOrganization', data: { id, name: organization.name } }, context);
  }
}

/** Adds a content section within its limit (SiteAdded); answers the new site's id. */
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
    const result = await this.organizations.handle(organizationId, { type: 'AddSite', data: { siteId, ...site } }, context);
    return { ...result, siteId };
  }
}

export type NewMember = {
  email: string;
  role: MemberRole;
  chorusUser?: boolean;
  /** Known to callers that have just created the user; otherwise the address's id from USER_DIRECTORY (reserved when new). */
  userId?: string;
  /**
   * The member is owed a mail (the members route): MemberAdded then says so in its metadata (`invitation:
   * 'owed'`), and the invitation reaction mails an invitation, or a notice when the address has an account.
   */
  invite?: boolean;
};

/** What an add answers: the member's user id, and whether MemberAdded owes them an invitation. */
export type AddedMemberResult = CommandResult & { userId: string; invitationOwed: boolean };

/** Adds a member within the users limit (MemberAdded); answers the member's user id. */
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
    @Inject(USER_DIRECTORY) private readonly users: UserDirectory,
  ) {}

  async execute({ organizationId, member, context }: AddMemberCommand): Promise<AddedMemberResult> {
    const { email, role, chorusUser } = member;
    const addMember = (userId: string): OrganizationCommandOf<'AddMember'> => ({ type: 'AddMember', data: chorusUser === undefined ? { userId, email, role } : { userId, email, role, chorusUser } });
    if (member.userId !== undefined) {
      return { ...(await this.organizations.handle(organizationId, addMember(member.userId), context)), userId: member.userId, invitationOwed: false };
    }
    // The address's id if it has one; else a new one, reserved for the address only once the add is accepted
    // (a refused add records nothing). Registered or not, the member is mailed: the answer must not tell them apart.
    const existing = await this.users.idOfEmail(email);
    let userId = existing ?? randomUUID();
    const reserved = new Set(existing === undefined ? [] : [existing]);
    const decision: OrganizationDecision = async (_state, decideOn) => {
      const events = decideOn(addMember(userId));
      if (events.length === 0 || reserved.has(userId)) return events;
      const held = await this.users.reserveIdForEmail(email, userId, context);
      reserved.add(held);
      if (held === userId) return events;
      // Someone reserved or registered the address meanwhile: the member is theirs.
      userId = held;
      return decideOn(addMember(userId));
    };
    const invitationOwed = member.invite === true;
    const result = await this.organizations.handleDecision(organizationId, 'AddMember', decision, context, invitationOwed ? { marks: invitationOwedMark } : {});
    return { ...result, userId, invitationOwed };
  }
}
