// The groups an organization's identity provider pushes, and the roles they map to (docs/directory.md): a
// provisioned member has the strongest role of their groups.
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { handleDecision, type CommandContext } from '#application';
import { EVENT_STORE, type EventStore } from '#event-store';
import {
  evolveDirectory,
  organizationStream,
  roleChangesFromGroups,
  scimGroupNotFound,
  type DirectoryCommand,
  type DirectoryEvent,
  type DirectoryGroup,
  type MemberRole,
} from '#domain';
import { AppClock } from '../config/app-clock.js';
import { Organizations } from '../organizations/organizations.service.js';
import { DirectoryStreams } from './directory-streams.js';
import type { GroupInput } from './scim-groups.js';

@Injectable()
export class DirectoryGroups {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly streams: DirectoryStreams,
    private readonly organizations: Organizations,
    private readonly clock: AppClock,
  ) {}

  async groups(organizationId: string): Promise<DirectoryGroup[]> {
    return [...(await this.streams.load(organizationId)).groups];
  }

  async group(organizationId: string, groupId: string): Promise<DirectoryGroup> {
    const group = (await this.streams.load(organizationId)).groups.find((candidate) => candidate.groupId === groupId);
    if (group === undefined) throw scimGroupNotFound(groupId);
    return group;
  }

  async createGroup(organizationId: string, input: GroupInput, context: CommandContext): Promise<DirectoryGroup> {
    await this.streams.enterprise(organizationId, 'scim');
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
    await this.streams.enterprise(organizationId, 'scim');
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
    await this.streams.enterprise(organizationId, 'scim');
    await this.changeGroups(
      organizationId,
      { type: 'DeleteScimGroup', data: { groupId, at: this.clock.now().toISOString() } },
      before.members,
      context,
    );
  }

  async groupRoles(organizationId: string): Promise<Readonly<Record<string, MemberRole>>> {
    await this.streams.existing(organizationId);
    return (await this.streams.load(organizationId)).groupRoles;
  }

  /** The whole mapping; every provisioned member's role follows it. */
  async mapGroupRoles(
    organizationId: string,
    roles: Record<string, MemberRole>,
    context: CommandContext,
  ): Promise<Readonly<Record<string, MemberRole>>> {
    await this.streams.enterprise(organizationId, 'refuse');
    const users = (await this.streams.load(organizationId)).users.toArray().map((user) => user.resourceId);
    await this.changeGroups(
      organizationId,
      { type: 'MapGroupRoles', data: { roles, at: this.clock.now().toISOString() } },
      users,
      context,
    );
    return (await this.streams.load(organizationId)).groupRoles;
  }

  /**
   * The group change and the roles it gives, decided on the directory as it will be once the change is recorded, in
   * one append. A change that would remove the organization's last owner changes nothing (LAST_OWNER: SCIM's 409
   * mutability).
   */
  private async changeGroups(
    organizationId: string,
    command: DirectoryCommand,
    concerned: readonly string[],
    context: CommandContext,
  ): Promise<void> {
    await handleDecision(
      this.store,
      context,
      { serializedOn: organizationStream(organizationId), commandType: command.type, together: true },
      async (reads) => {
        const directory = await this.streams.readFor(reads, organizationId);
        const changed = directory.decide(command);
        const after = (changed.decided as DirectoryEvent[]).reduce(evolveDirectory, directory.state);
        const members = await this.organizations.readFor(reads, organizationId, context);
        const roles = members.state.exists
          ? roleChangesFromGroups(after, members.state.members, new Set(concerned)).map(
              ({ userId, role }) => ({ type: 'ChangeMemberRole', data: { userId, role } }) as const,
            )
          : [];
        return { changes: [members.decideAll(roles), changed], result: undefined };
      },
    );
  }
}
