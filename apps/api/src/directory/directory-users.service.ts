// The people an organization's identity provider provisions (docs/directory.md). Membership is the organization's:
// each write decides it there (AddMember, RemoveMember, as `scim:<token>`) and records the SCIM resource on the
// directory's stream in the same append, so neither is ever without the other.
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { handleDecision, PersonalKeys, type CommandContext, type DecisionReads, type StreamChange } from '#application';
import {
  directoryKeepsOut,
  directoryUserById,
  directoryUserNamed,
  directoryUserOfAccount,
  directoryUserWithExternalId,
  roleFromGroups,
  isErasedPersonName,
  memberWithAddress,
  scimUserNotFound,
  ssoDomainOf,
  type DirectoryUser,
  type MemberRole,
  type ExistingOrganization,
  type Directory,
  type OrganizationCommand,
  type OrganizationState,
  organizationStream,
} from '#domain';
import { EVENT_STORE, PERSONAL_KEYS, type EventStore } from '#event-store';
import type { Identity } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { AppClock } from '../config/app-clock.js';
import { Organizations, type OrganizationForDecision } from '../organizations/organizations.service.js';
import { DirectoryStreams } from './directory-streams.js';
import { ScimError } from './scim-messages.js';
import { matchesUserFilter, type UserFilter, type UserInput } from './scim-users.js';

/** A directory write's membership: the id, a new address's reservation, the organization's commands. */
type Joining = { userId: string; reservation: StreamChange | undefined; commands: OrganizationCommand[] };

const isMember = (organization: OrganizationState, userId: string): boolean =>
  organization.exists && organization.members.has(userId);

/** An erased person's resource reads as erased: it is gone from the directory's answers. */
export const isShown = (user: DirectoryUser): boolean => !isErasedPersonName(user.userName);

@Injectable()
export class DirectoryUsers {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PERSONAL_KEYS) private readonly keys: PersonalKeys,
    private readonly streams: DirectoryStreams,
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly organizations: Organizations,
    private readonly clock: AppClock,
  ) {}

  /**
   * Providers filter by userName or externalId before each create: unique in a directory, so looked up, not searched
   * for.
   */
  async users(organizationId: string, filter?: UserFilter): Promise<DirectoryUser[]> {
    const directory = await this.streams.load(organizationId);
    if (filter?.attribute === 'userName' || filter?.attribute === 'externalId') {
      const user =
        filter.attribute === 'userName'
          ? directoryUserNamed(directory, filter.value)
          : directoryUserWithExternalId(directory, filter.value);
      return user !== undefined && isShown(user) ? [user] : [];
    }
    return directory.users
      .toArray()
      .filter((user) => isShown(user) && (filter === undefined || matchesUserFilter(user, filter)));
  }

  async user(organizationId: string, resourceId: string): Promise<DirectoryUser> {
    const user = directoryUserById(await this.streams.load(organizationId), resourceId);
    if (user === undefined || !isShown(user)) throw scimUserNotFound(resourceId);
    return user;
  }

  async provision(organizationId: string, input: UserInput, context: CommandContext): Promise<DirectoryUser> {
    const organization = await this.streams.enterprise(organizationId, 'scim');
    this.refuseUnverified(organization, input.userName);
    // A new address's id comes with its key made ahead: the create is one commit.
    const [resourceId, proposed, at] = [randomUUID(), await this.keys.newPerson(), this.clock.now().toISOString()];
    const userId = await this.decide(organizationId, context, 'ProvisionScimUser', async (reads) => {
      const directory = await this.streams.readFor(reads, organizationId);
      const byExternalId =
        input.externalId === undefined ? undefined : directoryUserWithExternalId(directory.state, input.externalId);
      const taken = [directoryUserNamed(directory.state, input.userName), byExternalId].some(
        (user) => user !== undefined && isShown(user),
      );
      if (taken)
        throw new ScimError(409, 'A user of this directory already has this userName or externalId.', 'uniqueness');
      const members = await this.organizations.readFor(reads, organizationId, context);
      const joining = input.active
        ? await this.joiningIn(reads, members, input.userName, 'member', proposed)
        : await this.addressIdIn(reads, input.userName, proposed);
      const provisioned = directory.decide({
        type: 'ProvisionScimUser',
        data: { resourceId, userId: joining.userId, ...input, at },
      });
      return {
        changes: [joining.reservation, members.decideAll(joining.commands), provisioned],
        result: joining.userId,
      };
    });
    if (userId !== proposed) this.keys.giveBack(proposed);
    return this.user(organizationId, resourceId);
  }

  /** A PUT, and a PATCH once applied: the whole resource as it is to be. */
  async replace(
    organizationId: string,
    resourceId: string,
    input: UserInput,
    context: CommandContext,
  ): Promise<DirectoryUser> {
    const organization = await this.streams.enterprise(organizationId, 'scim');
    const current = await this.user(organizationId, resourceId);
    // Only another address may be a new person: the same one keeps its id.
    const addressChanges = current.userName.toLowerCase() !== input.userName.toLowerCase();
    const [proposed, at] = [
      addressChanges ? await this.keys.newPerson() : randomUUID(),
      this.clock.now().toISOString(),
    ];
    const left = await this.decide(organizationId, context, 'UpdateScimUser', async (reads) => {
      const directory = await this.streams.readFor(reads, organizationId);
      const before = this.shown(directory.state, resourceId);
      const sameAddress = before.userName.toLowerCase() === input.userName.toLowerCase();
      if (!sameAddress) this.refuseUnverified(organization, input.userName);
      const members = await this.organizations.readFor(reads, organizationId, context);
      const commands: OrganizationCommand[] = [];
      // Another address is another member: the old one leaves first, so that the users limit counts the person once.
      const leaves = before.active && (!input.active || !sameAddress);
      if (leaves && isMember(members.state, before.userId))
        commands.push({ type: 'RemoveMember', data: { userId: before.userId } });
      let joining: Joining = { userId: before.userId, reservation: undefined, commands: [] };
      if (!sameAddress) joining = await this.addressIdIn(reads, input.userName, proposed);
      if (input.active && (!before.active || !sameAddress)) {
        // Back with their groups' role (member when none is mapped).
        const role = roleFromGroups(directory.state, resourceId) ?? 'member';
        joining = await this.joiningIn(reads, members, input.userName, role, proposed);
      }
      const updated = directory.decide({
        type: 'UpdateScimUser',
        data: { resourceId, userId: joining.userId, ...input, at },
      });
      return {
        changes: [joining.reservation, members.decideAll([...commands, ...joining.commands]), updated],
        result: leaves ? before : undefined,
      };
    });
    if (left !== undefined) await this.endSessions(organization, left, context);
    return this.user(organizationId, resourceId);
  }

  async delete(organizationId: string, resourceId: string, context: CommandContext): Promise<void> {
    const organization = await this.streams.enterprise(organizationId, 'scim');
    const at = this.clock.now().toISOString();
    const left = await this.decide(organizationId, context, 'DeleteScimUser', async (reads) => {
      const directory = await this.streams.readFor(reads, organizationId);
      const user = this.shown(directory.state, resourceId);
      const members = await this.organizations.readFor(reads, organizationId, context);
      const leaves = user.active && isMember(members.state, user.userId);
      const removal = leaves ? [{ type: 'RemoveMember', data: { userId: user.userId } } as const] : [];
      const deleted = directory.decide({ type: 'DeleteScimUser', data: { resourceId, at } });
      return { changes: [members.decideAll(removal), deleted], result: user.active ? user : undefined };
    });
    if (left !== undefined) await this.endSessions(organization, left, context);
  }

  /**
   * An erasure's step: the person's resources leave the directory by an event, so every node's cached fold forgets
   * them.
   */
  async erasePerson(organizationId: string, userId: string, context: CommandContext): Promise<void> {
    await this.streams.decide(organizationId, { type: 'EraseScimPerson', data: { userId } }, context);
  }

  /** What the directory says of this member and the groups it puts them in (their own copy of their data). */
  async recordOf(
    organizationId: string,
    userId: string,
  ): Promise<{ record: Record<string, unknown>; groups: string[] } | undefined> {
    const directory = await this.streams.load(organizationId);
    const user = directoryUserOfAccount(directory, userId);
    if (user === undefined || !isShown(user)) return undefined;
    const groups = directory.groups
      .filter((group) => group.members.includes(user.resourceId))
      .map((group) => group.displayName);
    return { record: { ...user }, groups };
  }

  /** Whether the organization's directory deactivated or removed the person (joining by domain and SSO defer to it). */
  async keepsOut(organizationId: string, person: { userId: string | undefined; email: string }): Promise<boolean> {
    return directoryKeepsOut(await this.streams.load(organizationId), person);
  }

  /**
   * One write of the directory: the organization's membership changes, a new address's reservation and the SCIM
   * resource's event in ONE append, so a crash never leaves one without the other and a lost race is retried whole.
   * Writes an identity provider sends at once are decided together, in turn, and share that append.
   */
  private async decide<Result = undefined>(
    organizationId: string,
    context: CommandContext,
    commandType: string,
    decision: (
      reads: DecisionReads,
    ) => Promise<
      ReadonlyArray<StreamChange | undefined> | { changes: ReadonlyArray<StreamChange | undefined>; result: Result }
    >,
  ): Promise<Result | undefined> {
    const { result } = await handleDecision(
      this.store,
      context,
      { serializedOn: organizationStream(organizationId), commandType, together: true },
      async (reads) => {
        const decided = await decision(reads);
        return 'changes' in decided ? decided : { changes: decided, result: undefined };
      },
    );
    return result;
  }

  private shown(directory: Directory, resourceId: string): DirectoryUser {
    const user = directoryUserById(directory, resourceId);
    if (user === undefined || !isShown(user)) throw scimUserNotFound(resourceId);
    return user;
  }

  /**
   * The address's member id: one already a member joins as they are (an invited member, an owner), anyone else is
   * added with `role` (and a new address gets `proposed`, reserved with the add).
   */
  private async joiningIn(
    reads: DecisionReads,
    members: OrganizationForDecision,
    address: string,
    role: MemberRole,
    proposed: string,
  ): Promise<Joining> {
    const member = members.state.exists ? memberWithAddress(members.state, address) : undefined;
    if (member !== undefined) return { userId: member.userId, reservation: undefined, commands: [] };
    const { userId, reservation } = await this.identity.directory.reservationIn(reads, address, proposed);
    return { userId, reservation, commands: [{ type: 'AddMember', data: { userId, email: address, role } }] };
  }

  /** The address's id, reserved when it has none, for a resource that is not a member. */
  private async addressIdIn(reads: DecisionReads, address: string, proposed: string): Promise<Joining> {
    const { userId, reservation } = await this.identity.directory.reservationIn(reads, address, proposed);
    return { userId, reservation, commands: [] };
  }

  /**
   * For an account of a domain the organization has verified (it controls those addresses), every session of the
   * account ends with its membership: other nodes follow the ends from the log (SessionEndsFollower).
   */
  private async endSessions(
    organization: ExistingOrganization,
    user: DirectoryUser,
    context: CommandContext,
  ): Promise<void> {
    if (ssoDomainOf(organization, user.userName) === null) return;
    for (const session of await this.identity.sessions.listForUser(user.userId))
      await this.identity.sessions.revoke(user.userId, session.sessionId, context);
  }

  private refuseUnverified(organization: ExistingOrganization, address: string): void {
    if (ssoDomainOf(organization, address) === null) {
      throw new ScimError(
        400,
        `${address} is not in a domain this organization has verified: verify the domain under Single sign-on first.`,
        'invalidValue',
      );
    }
  }
}
