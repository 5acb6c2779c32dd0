// An organization's directory (docs/directory.md): SCIM tokens, and the people its identity provider provisions.
// Membership is the organization's: each write decides it there first (AddMember, RemoveMember, as `scim:<token>`)
// and then records the SCIM resource on the directory's stream, so a crash between the two leaves a member the
// provider's retry adopts, never a resource without its member.
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { FoldedStateCache, handleCommand, loadStream, type CommandContext } from '#application';
import {
  directoryDecider,
  directoryKeepsOut,
  directoryUserById,
  directoryUserNamed,
  directoryUserOfAccount,
  directoryUserWithExternalId,
  DomainError,
  evolveDirectory,
  roleChangesFromGroups,
  roleFromGroups,
  scimGroupNotFound,
  hasSsoPlan,
  isErasedPersonName,
  memberWithAddress,
  scimUserNotFound,
  ssoDomainOf,
  type Directory,
  type DirectoryCommand,
  type DirectoryGroup,
  type DirectoryUser,
  type MemberRole,
  type ExistingOrganization,
  type PlanCatalogue,
  type ScimToken,
} from '#domain';
import type { Identity } from '#identity';
import { EVENT_STORE, type EventStore } from '#event-store';
import { IDENTITY } from '../auth/identity.provider.js';
import { AppClock } from '../config/app-clock.js';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import { AddMemberCommand, Organizations } from '../organizations/organizations.js';
import { PLAN_CATALOGUE } from '../plans/plan-catalogue.module.js';
import type { GroupInput } from './scim-groups.js';
import { matchesUserFilter, ScimError, type UserFilter, type UserInput } from './scim-protocol.js';

/**
 * `chscim_<organization id>.<token id>.<secret>`: the organization and token find the stored hash; 256 random bits of
 * secret.
 */
const SCIM_TOKEN = /^chscim_([a-z0-9][a-z0-9-]{0,62})\.([0-9a-f]{24})\.([A-Za-z0-9_-]{43})$/;
const TOKEN_USE_GRANULARITY_MS = 60_000;
const digestOf = (secret: string): string => `sha256:${hash('sha256', secret, 'hex')}`;

export type ScimCaller = { organizationId: string; tokenId: string };
export type TokenSummary = Omit<ScimToken, 'secretHash'>;

/** An erased person's resource reads as erased: it is gone from the directory's answers. */
const isShown = (user: DirectoryUser): boolean => !isErasedPersonName(user.userName);

@Injectable()
export class OrganizationDirectory {
  private readonly cache = new FoldedStateCache<Directory>(1_000);

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(IDENTITY) private readonly identity: Identity,
    @Inject(PLAN_CATALOGUE) private readonly catalogue: PlanCatalogue,
    private readonly organizations: Organizations,
    private readonly commands: MeteredCommandBus,
    private readonly clock: AppClock,
  ) {}

  // --- Tokens ----------------------------------------------------------------------------------------------------

  async createToken(
    organizationId: string,
    name: string,
    context: CommandContext,
  ): Promise<TokenSummary & { token: string }> {
    await this.enterprise(organizationId, 'refuse');
    const tokenId = randomBytes(12).toString('hex');
    const secret = randomBytes(32).toString('base64url');
    const at = this.clock.now().toISOString();
    await this.decide(
      organizationId,
      { type: 'CreateScimToken', data: { tokenId, name, secretHash: digestOf(secret), at } },
      context,
    );
    return {
      tokenId,
      name,
      createdAt: at,
      revokedAt: null,
      lastUsedAt: null,
      token: `chscim_${organizationId}.${tokenId}.${secret}`,
    };
  }

  async tokens(organizationId: string): Promise<TokenSummary[]> {
    await this.existing(organizationId);
    return (await this.load(organizationId)).tokens.map(({ secretHash: _, ...token }) => token);
  }

  async revokeToken(organizationId: string, tokenId: string, context: CommandContext): Promise<void> {
    await this.decide(
      organizationId,
      { type: 'RevokeScimToken', data: { tokenId, at: this.clock.now().toISOString() } },
      context,
    );
  }

  /**
   * The caller a bearer token stands for; undefined for anything but a live token. Read from the organization's
   * directory stream on every request (only the events after the cached fold), so a revocation holds at once on every
   * node.
   */
  async authenticate(bearer: string, context: CommandContext): Promise<ScimCaller | undefined> {
    const match = SCIM_TOKEN.exec(bearer);
    if (match === null) return undefined;
    const [, organizationId = '', tokenId = '', secret = ''] = match;
    const directory = await this.load(organizationId);
    const token = directory.tokens.find((candidate) => candidate.tokenId === tokenId);
    const offered = Buffer.from(digestOf(secret));
    const stored = Buffer.from(token?.secretHash ?? digestOf(randomUUID()));
    if (
      token === undefined ||
      token.revokedAt !== null ||
      offered.length !== stored.length ||
      !timingSafeEqual(offered, stored)
    )
      return undefined;
    const use = {
      type: 'RecordScimTokenUse',
      data: { tokenId, at: this.clock.now(), useGranularityMs: TOKEN_USE_GRANULARITY_MS },
    } as const;
    // The use is decided on the fold just read, so most requests (a use recorded within the minute) read the stream
    // once.
    if (directoryDecider.decide(use, directory).length > 0)
      await this.decide(organizationId, use, context).catch(() => undefined);
    return { organizationId, tokenId };
  }

  // --- Users -----------------------------------------------------------------------------------------------------

  /**
   * Providers filter by userName or externalId before each create: unique in a directory, so looked up, not searched
   * for.
   */
  async users(organizationId: string, filter?: UserFilter): Promise<DirectoryUser[]> {
    const directory = await this.load(organizationId);
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
    const user = directoryUserById(await this.load(organizationId), resourceId);
    if (user === undefined || !isShown(user)) throw scimUserNotFound(resourceId);
    return user;
  }

  async provision(organizationId: string, input: UserInput, context: CommandContext): Promise<DirectoryUser> {
    const organization = await this.enterprise(organizationId, 'scim');
    this.refuseUnverified(organization, input.userName);
    const directory = await this.load(organizationId);
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
    await this.decide(
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
    const organization = await this.enterprise(organizationId, 'scim');
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
        roleFromGroups(await this.load(organizationId), resourceId) ?? 'member',
        context,
      );
    }
    await this.decide(
      organizationId,
      { type: 'UpdateScimUser', data: { resourceId, userId, ...input, at: this.clock.now().toISOString() } },
      context,
    );
    return this.user(organizationId, resourceId);
  }

  async delete(organizationId: string, resourceId: string, context: CommandContext): Promise<void> {
    const user = await this.user(organizationId, resourceId);
    await this.enterprise(organizationId, 'scim');
    if (user.active) await this.leave(organizationId, user, context);
    await this.decide(
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
    await this.decide(organizationId, { type: 'EraseScimPerson', data: { userId } }, context);
  }

  // --- Groups ----------------------------------------------------------------------------------------------------

  async groups(organizationId: string): Promise<DirectoryGroup[]> {
    return [...(await this.load(organizationId)).groups];
  }

  async group(organizationId: string, groupId: string): Promise<DirectoryGroup> {
    const group = (await this.load(organizationId)).groups.find((candidate) => candidate.groupId === groupId);
    if (group === undefined) throw scimGroupNotFound(groupId);
    return group;
  }

  async createGroup(organizationId: string, input: GroupInput, context: CommandContext): Promise<DirectoryGroup> {
    await this.enterprise(organizationId, 'scim');
    const groupId = randomUUID();
    await this.changeGroups(
      organizationId,
      { type: 'CreateScimGroup', data: { groupId, ...input, at: this.clock.now().toISOString() } },
      input.members,
      context,
    );
    return this.group(organizationId, groupId);
  }

  async updateGroup(
    organizationId: string,
    groupId: string,
    input: GroupInput,
    context: CommandContext,
  ): Promise<DirectoryGroup> {
    const before = await this.group(organizationId, groupId);
    await this.enterprise(organizationId, 'scim');
    const concerned = [...before.members, ...input.members];
    await this.changeGroups(
      organizationId,
      { type: 'UpdateScimGroup', data: { groupId, ...input, at: this.clock.now().toISOString() } },
      concerned,
      context,
    );
    return this.group(organizationId, groupId);
  }

  async deleteGroup(organizationId: string, groupId: string, context: CommandContext): Promise<void> {
    const before = await this.group(organizationId, groupId);
    await this.enterprise(organizationId, 'scim');
    await this.changeGroups(
      organizationId,
      { type: 'DeleteScimGroup', data: { groupId, at: this.clock.now().toISOString() } },
      before.members,
      context,
    );
  }

  async groupRoles(organizationId: string): Promise<Readonly<Record<string, MemberRole>>> {
    await this.existing(organizationId);
    return (await this.load(organizationId)).groupRoles;
  }

  /** The whole mapping; every provisioned member's role follows it. */
  async mapGroupRoles(
    organizationId: string,
    roles: Record<string, MemberRole>,
    context: CommandContext,
  ): Promise<Readonly<Record<string, MemberRole>>> {
    await this.enterprise(organizationId, 'refuse');
    const users = (await this.load(organizationId)).users.map((user) => user.resourceId);
    await this.changeGroups(
      organizationId,
      { type: 'MapGroupRoles', data: { roles, at: this.clock.now().toISOString() } },
      users,
      context,
    );
    return (await this.load(organizationId)).groupRoles;
  }

  /**
   * Roles first, on the organization's stream, as the directory will be once the change is recorded, then the change
   * itself: a crash between them leaves roles that the provider's retry records the reason for. A change that would
   * remove the organization's last owner changes nothing (LAST_OWNER: SCIM's 409 mutability).
   */
  private async changeGroups(
    organizationId: string,
    command: DirectoryCommand,
    concerned: readonly string[],
    context: CommandContext,
  ): Promise<void> {
    const now = await this.load(organizationId);
    const after = directoryDecider.decide(command, now).reduce(evolveDirectory, now);
    await this.applyRoles(organizationId, after, new Set(concerned), context);
    await this.decide(organizationId, command, context);
  }

  private async applyRoles(
    organizationId: string,
    directory: Directory,
    concerned: ReadonlySet<string>,
    context: CommandContext,
  ): Promise<void> {
    const { state } = await this.organizations.load(organizationId);
    if (!state.exists) return;
    for (const { userId, role } of roleChangesFromGroups(directory, state.members, concerned)) {
      await this.organizations.handle(organizationId, { type: 'ChangeMemberRole', data: { userId, role } }, context);
    }
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

  /** Directories come with the enterprise plans; a SCIM call answers 403 once the plan no longer includes them. */
  private async enterprise(organizationId: string, refusal: 'refuse' | 'scim'): Promise<ExistingOrganization> {
    const organization = await this.existing(organizationId);
    if (hasSsoPlan(organization, this.catalogue)) return organization;
    if (refusal === 'scim')
      throw new ScimError(403, 'The organization’s plan no longer includes directory provisioning.');
    throw new DomainError(
      'ENTERPRISE_PLAN_REQUIRED',
      'Directory provisioning (SCIM) comes with the enterprise plans.',
      { feature: 'scim' },
    );
  }

  private async existing(organizationId: string): Promise<ExistingOrganization> {
    const { state } = await this.organizations.load(organizationId);
    if (!state.exists)
      throw new DomainError('NOT_FOUND', 'The organization does not exist.', { entity: 'organization' });
    return state;
  }

  /** What the directory says of this member and the groups it puts them in (their own copy of their data). */
  async recordOf(
    organizationId: string,
    userId: string,
  ): Promise<{ record: Record<string, unknown>; groups: string[] } | undefined> {
    const directory = await this.load(organizationId);
    const user = directoryUserOfAccount(directory, userId);
    if (user === undefined || !isShown(user)) return undefined;
    const groups = directory.groups
      .filter((group) => group.members.includes(user.resourceId))
      .map((group) => group.displayName);
    return { record: { ...user }, groups };
  }

  /** Whether the organization's directory deactivated or removed the person (joining by domain and SSO defer to it). */
  async keepsOut(organizationId: string, person: { userId: string | undefined; email: string }): Promise<boolean> {
    return directoryKeepsOut(await this.load(organizationId), person);
  }

  private async load(organizationId: string): Promise<Directory> {
    return (await loadStream(this.store, directoryDecider, organizationId, { cache: this.cache })).state;
  }

  private async decide(organizationId: string, command: DirectoryCommand, context: CommandContext): Promise<Directory> {
    return (await handleCommand(this.store, directoryDecider, organizationId, command, context, { cache: this.cache }))
      .state;
  }
}
