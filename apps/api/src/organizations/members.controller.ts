import { Body, Controller, Delete, Inject, Optional, Param, Patch, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import type { CommandContext } from '#event-store';
import { OWNERS_AND_ADMINS, RequireAccess } from '../access/require-access.decorator.js';
import { RequestCommandContext } from '../access/request-command-context.decorator.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { commandAnswer, type CommandAnswer } from './command-result.js';
import { AddMemberCommand } from './commands/add-member.command.js';
import { ChangeOrganizationCommand } from './commands/change-organization.command.js';
import { MEMBER_INVITATIONS, type InvitationOutcome, type MemberInvitations } from './member-invitations.js';
import { addMemberRequest } from './organization-requests.js';
import { validMemberOrSiteId, validOrganizationId } from './organization-route-parameters.js';
import { commandAnswerText, Operation } from '../openapi/operation.decorator.js';

const changeRoleRequest = addMemberRequest.pick({ role: true });

/** Members of an organization; owners and admins manage their own organization's members. */
@Controller('organizations/:id/members')
export class MembersController {
  constructor(
    private readonly commands: CommandBus,
    @Optional() @Inject(MEMBER_INVITATIONS) private readonly invitations?: MemberInvitations,
  ) {}

  /**
   * Answers the member's `userId` too (the id of the address's user, registered or still to register),
   * and `invitation`: `pending` when the address has no account yet (the invitation reaction mails it
   * after this answer, at least once, even across a crash), `registered` when it has one.
   */
  @Post()
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({ summary: 'Add a member (MemberAdded); an address without an account is invited', ...commandAnswerText, responses: { 409: 'LIMIT_EXCEEDED or DUPLICATE' } })
  async add(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(addMemberRequest)) body: z.output<typeof addMemberRequest>,
    @RequestCommandContext() context: CommandContext,
  ): Promise<CommandAnswer & { userId: string; invitation: InvitationOutcome }> {
    const { invitationOwed, ...added } = await this.commands.execute(new AddMemberCommand(id, { ...body, invite: this.invitations !== undefined }, context));
    return { ...commandAnswer(added), invitation: invitationOwed ? 'pending' : 'registered' };
  }

  /** A new role (MemberRoleChanged); the same role again changes nothing; the last owner stays an owner. */
  @Patch(':userId')
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({ summary: "Change a member's role", ...commandAnswerText, responses: { 409: 'LAST_OWNER' } })
  async changeRole(
    @Param('id', validOrganizationId) id: string,
    @Param('userId', validMemberOrSiteId) userId: string,
    @Body(new ZodValidationPipe(changeRoleRequest)) { role }: z.output<typeof changeRoleRequest>,
    @RequestCommandContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(await this.commands.execute(new ChangeOrganizationCommand(id, { type: 'ChangeMemberRole', data: { userId, role } }, context)));
  }

  @Delete(':userId')
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({ summary: 'Remove a member (MemberRemoved)', ...commandAnswerText, responses: { 409: 'LAST_OWNER' } })
  async remove(
    @Param('id', validOrganizationId) id: string,
    @Param('userId', validMemberOrSiteId) userId: string,
    @RequestCommandContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(await this.commands.execute(new ChangeOrganizationCommand(id, { type: 'RemoveMember', data: { userId } }, context)));
  }
}
