import { Body, Controller, Delete, Get, HttpCode, Inject, Optional, Param, Patch, Post } from '@nestjs/common';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import type { z } from 'zod';
import type { CommandContext } from '#application';
import { OWNERS_AND_ADMINS, RequireAccess } from '../access/require-access.decorator.js';
import { PrincipalContext } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { commandAnswer, type CommandAnswer } from './command-result.js';
import {
  INVITATION_RESEND,
  MEMBER_INVITATIONS,
  type InvitationMailAnswer,
  type InvitationResend,
  type MemberInvitations,
  type UndeliveredInvitation,
} from './member-invitations.js';
import { AddMemberCommand } from './add-member.command.js';
import { ChangeOrganizationCommand } from './change-organization.command.js';
import { Organizations } from './organizations.service.js';
import { ProblemError } from '../http/problem-error.js';
import { addMemberRequest, validMemberOrSiteId, validOrganizationId } from './organization-requests.js';
import { commandAnswerText, Operation } from '../http/operation.decorator.js';
import { addMemberAnswer, undeliveredInvitationsAnswer } from './organization-responses.js';

const changeRoleRequest = addMemberRequest.pick({ role: true });

/** Members of an organization; owners and admins manage their own organization's members. */
@Controller('organizations/:id/members')
export class MembersController {
  constructor(
    private readonly commands: MeteredCommandBus,
    private readonly organizations: Organizations,
    @Optional() @Inject(MEMBER_INVITATIONS) private readonly invitations?: MemberInvitations,
    @Optional() @Inject(INVITATION_RESEND) private readonly resends?: InvitationResend,
  ) {}

  /**
   * Answers the member's `userId` too (the id of the address's user, registered or still to register),
   * and `invitation: 'pending'`: the reaction mails the member after this answer, at least once, even
   * across a crash (an invitation, or a notice when the address has an account: the answer is the same).
   */
  @Post()
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({
    summary: 'Add a member (MemberAdded); the member is mailed: an invitation, or a notice when they have an account',
    ...commandAnswerText,
    answer: addMemberAnswer,
    responses: { 409: 'LIMIT_EXCEEDED or DUPLICATE' },
  })
  async add(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(addMemberRequest)) body: z.output<typeof addMemberRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer & { userId: string; invitation: InvitationMailAnswer }> {
    const { invitationOwed, ...added } = await this.commands.execute(
      new AddMemberCommand(id, { ...body, invite: this.invitations !== undefined }, context),
    );
    return { ...commandAnswer(added), invitation: invitationOwed ? 'pending' : 'none' };
  }

  /** The members the organization's mail could not reach, for those who manage them to correct the address. */
  @Get('invitation-failures')
  @RequireAccess({ scope: 'organizations:read', members: OWNERS_AND_ADMINS })
  @Operation({
    summary: 'Members whose invitation (or notice) mail was refused for good: it is not tried again',
    answer: undeliveredInvitationsAnswer,
  })
  async undelivered(@Param('id', validOrganizationId) id: string): Promise<{ failures: UndeliveredInvitation[] }> {
    const { state } = await this.organizations.load(id);
    const members = state.exists ? state.members.toArray().map((member) => member.userId) : [];
    return {
      failures:
        this.invitations === undefined || members.length === 0 ? [] : await this.invitations.undelivered(id, members),
    };
  }

  /** A new role (MemberRoleChanged); the same role again changes nothing; the last owner stays an owner. */
  @Patch(':userId')
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({ summary: "Change a member's role", ...commandAnswerText, responses: { 409: 'LAST_OWNER' } })
  async changeRole(
    @Param('id', validOrganizationId) id: string,
    @Param('userId', validMemberOrSiteId) userId: string,
    @Body(new ZodValidationPipe(changeRoleRequest)) { role }: z.output<typeof changeRoleRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(
        new ChangeOrganizationCommand(id, { type: 'ChangeMemberRole', data: { userId, role } }, context),
      ),
    );
  }

  /** Mails a pending member's invitation again, with a new link; recorded as InvitationResent once the mail went. */
  @Post(':userId/invitation')
  @HttpCode(200)
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({
    summary: "Send a pending member's invitation again (InvitationResent)",
    ...commandAnswerText,
    description: `${commandAnswerText.description} The invitation is mailed before the answer, within the same limits as any invitation.`,
    responses: {
      404: 'NOT_FOUND (not a member of this organization)',
      409: 'ALREADY_REGISTERED (the member has an account)',
      429: 'RATE_LIMITED',
      503: 'UNAVAILABLE: this process sends no invitations',
    },
  })
  async resendInvitation(
    @Param('id', validOrganizationId) id: string,
    @Param('userId', validMemberOrSiteId) userId: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    if (this.resends === undefined)
      throw new ProblemError(503, 'UNAVAILABLE', 'Invitations are not sent here', 'This process sends no invitations.');
    return commandAnswer(await this.resends.resend(id, userId, context));
  }

  @Delete(':userId')
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({ summary: 'Remove a member (MemberRemoved)', ...commandAnswerText, responses: { 409: 'LAST_OWNER' } })
  async remove(
    @Param('id', validOrganizationId) id: string,
    @Param('userId', validMemberOrSiteId) userId: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(
        new ChangeOrganizationCommand(id, { type: 'RemoveMember', data: { userId } }, context),
      ),
    );
  }
}
