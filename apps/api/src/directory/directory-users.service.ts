// The people an organization's identity provider provisions (docs/directory.md). Membership is the organization's:
// each write decides it there first (AddMember, RemoveMember, as `scim:<token>`) and then records the SCIM resource
// on the directory's stream, so a crash between the two leaves a member the provider's retry adopts, never a
// resource without its member.
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type CommandContext } from '#application';
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
} from '#domain';
import type { Identity } from '#identity';
import { IDENTITY } from '../auth/identity.provider.js';
import { AppClock } from '../config/app-clock.js';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import { AddMemberCommand } from '../organizations/add-member.command.js';
import { Organizations } from '../organizations/organizations.service.js';
import { DirectoryStreams } from './directory-streams.js';
import { ScimError } from './scim-messages.js';
import { matchesUserFilter, type UserFilter, type UserInput } from './scim-users.js';

/** An erased person's resource reads as erased: it is gone from the directory's answers. */
export const isShown = (user: DirectoryUser): boolean => !isErasedPersonName(user.userName);

@Injectable()
export class DirectoryUsers {
  constructor(
    private readonly streams: DirectoryStreams,
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly organizations: Organizations,
    private readonly commands: MeteredCommandBus,
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
    return directory.users.filter((user) => isShown(user) && (filter === undefined || matchesUserFilter(user, filter)));
  }

  async user(organizationId: string, resourceId: string): Promise<DirectoryUser> {
    const user = directoryUserById(await this.streams.load(organizationId), resourceId);
    if (user === undefined || !isShown(user)) throw scimUserNotFound(resourceId);
    return user;
  }

  async provision(organizationId: string, input: UserInput, context: CommandContext): Promise<DirectoryUser> {
    const organization = await this.streams.enterprise(organizationId, 'scim');
    this.refuseUnverified(organization, input.userName);
    const directory = await this.streams.load(organizationId);
    const byExternalId =
      input.externalId === undefined ? undefined : directoryUserWithExternalId(directory, input.externalId);
    const taken = [directoryUserNamed(directory, input.userName), byExternalId].some(
      (user) => user !== undefined && isShown(user),
    );
    if (taken)
      throw new ScimError(409, 'A user of this directory already has this userName or externalId.', 'uniqueness');
    const userId = input.active
      ? await this.join(organizationId, input.userName, 'member', context)
      : await this.identity.directory.userIdForEmail(input.userName, context);
    const resourceId = randomUUID();
    await this.streams.decide(
      organizationId,
      { type: 'ProvisionScimUser', data: { resourceId, userId, ...input, at: this.clock.now().toISOString() } },
      context,
    );
    return this.user(organizationId, resourceId);
  }

  /** A PUT, and a PATCH once applied: the whole resource as it is to be. */
  async replace(
    organizationId: string,
    resourceId: string,
    input: UserInput,
    context: CommandContext,
  ): Promise<DirectoryUser> {
    const before = await this.user(organizationId, resourceId);
    const organization = await this.streams.enterprise(organizationId, 'scim');
    const sameAddress = before.userName.toLowerCase() === input.userName.toLowerCase();
    if (!sameAddress) this.refuseUnverified(organization, input.userName);
    let userId = before.userId;
    // Another address is another member: the old one leaves first, so that the users limit counts the person once.
    if (before.active && (!input.active || !sameAddress)) await this.leave(organizationId, before, context);
    if (!sameAddress) userId = await this.identity.directory.userIdForEmail(input.userName, context);
    if (input.active && (!before.active || !sameAddress)) {
      // Back with their groups' role (member when none is mapped).
      userId = await this.join(
        organizationId,
        input.userName,
        roleFromGroups(await this.streams.load(organizationId), resourceId) ?? 'member',
        context,
      );
    }
    await this.streams.decide(
      organizationId,
      { type: 'UpdateScimUser', data: { resourceId, userId, ...input, at: this.clock.now().toISOString() } },
      context,
    );
    return this.user(organizationId, resourceId);
  }

  async delete(organizationId: string, resourceId: string, context: CommandContext): Promise<void> {
    const user = await this.user(organizationId, resourceId);
    await this.streams.enterprise(organizationId, 'scim');
    if (user.active) await this.leave(organizationId, user, context);
    await this.streams.decide(
      organizationId,
      { type: 'DeleteScimUser', data: { resourceId, at: this.clock.now().toISOString() } },
      context,
    );
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
   * The address's member id: one already a member joins as they are (an invited member, an owner), anyone else with
   * `role`.
   */
  private async join(
    organizationId: string,
    address: string,
    role: MemberRole,
    context: CommandContext,
  ): Promise<string> {
    const { state } = await this.organizations.load(organizationId);
    const member = state.exists ? memberWithAddress(state, address) : undefined;
    if (member !== undefined) return member.userId;
    const added = await this.commands.execute(
      new AddMemberCommand(organizationId, { email: address, role, invite: false }, context),
    );
    return added.userId;
  }

  /**
   * Ends the membership and, for an account of a domain the organization has verified (it controls those addresses),
   * every session of the account: other nodes follow the ends from the log (SessionEndsFollower).
   */
  private async leave(organizationId: string, user: DirectoryUser, context: CommandContext): Promise<void> {
    const { state } = await this.organizations.load(organizationId);
    if (!state.exists) return;
    if (state.members.some((member) => member.userId === user.userId)) {
      await this.organizations.handle(organizationId, { type: 'RemoveMember', data: { userId: user.userId } }, context);
    }
    if (ssoDomainOf(state, user.userName) === null) return;
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
