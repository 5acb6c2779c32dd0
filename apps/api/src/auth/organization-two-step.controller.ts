// An organization's two-step sign-in (docs/api.md, Two-step sign-in): whether it is required of every
// member, which members have a second factor, and an owner's reset of a member's factors (a lost phone).
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Put } from '@nestjs/common';
import { z } from 'zod';
import type { CommandContext } from '#application';
import { hasSecondFactor } from '#domain';
import type { Identity } from '#identity';
import { OWNERS_AND_ADMINS, RequireAccess } from '../access/require-access.decorator.js';
import { PrincipalContext } from '../http/request-context.js';
import { ProblemError } from '../http/problem-error.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import { commandAnswerText, Operation } from '../openapi/operation.decorator.js';
import { commandAnswer, type CommandAnswer } from '../organizations/command-result.js';
import { validMemberOrSiteId, validOrganizationId } from '../organizations/organization-requests.js';
import { ChangeOrganizationCommand, Organizations } from '../organizations/organizations.js';
import { IDENTITY } from './identity.provider.js';

const policyRequest = z.strictObject({ required: z.boolean() });

export type TwoStepMembers = { required: boolean; members: { userId: string; email: string; role: string; secondFactor: boolean }[] };

@Controller('organizations/:id/two-step-sign-in')
export class OrganizationTwoStepController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly organizations: Organizations,
    private readonly commands: MeteredCommandBus,
  ) {}

  @Get()
  @RequireAccess({ scope: 'organizations:read', members: OWNERS_AND_ADMINS })
  @Operation({ summary: 'Whether two-step sign-in is required, and which members have a second factor' })
  async members(@Param('id', validOrganizationId) id: string): Promise<TwoStepMembers> {
    const state = await this.existing(id);
    const members = await Promise.all(
      state.members.map(async ({ userId, email, role }) => {
        const { state: user } = await this.identity.users.load(userId);
        return { userId, email, role, secondFactor: user.status === 'registered' && hasSecondFactor(user.secondFactors) };
      }),
    );
    return { required: state.twoStepSignInRequired ?? false, members };
  }

  /** Owners only: who must prove more at sign-in is a matter for those who answer for the organization. */
  @Put()
  @RequireAccess({ scope: 'organizations:write', members: ['owner'] })
  @Operation({ summary: 'Require two-step sign-in of every member, or not (TwoStepSignInPolicySet)', ...commandAnswerText })
  async setPolicy(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(policyRequest)) { required }: z.output<typeof policyRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(await this.commands.execute(new ChangeOrganizationCommand(id, { type: 'SetTwoStepSignInPolicy', data: { required } }, context)));
  }

  /**
   * Owners only, and only for a member of this organization: every second factor of the member goes
   * (SecondFactorsReset on their own stream, naming this organization), and the member is mailed.
   */
  @Delete('members/:userId')
  @HttpCode(204)
  @RequireAccess({ scope: 'organizations:write', members: ['owner'] })
  @Operation({ summary: "Remove every second factor of a member who lost them; the member is mailed", responses: { 404: 'NOT_FOUND: not a member of this organization' } })
  async reset(
    @Param('id', validOrganizationId) id: string,
    @Param('userId', validMemberOrSiteId) userId: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<void> {
    const state = await this.existing(id);
    if (!state.members.some((member) => member.userId === userId)) throw new ProblemError(404, 'NOT_FOUND', 'Not found', 'No member of this organization has this id.');
    await this.identity.twoStep.resetByOwner(userId, id, state.name, context);
  }

  private async existing(id: string) {
    const { state } = await this.organizations.load(id);
    if (!state.exists) throw new ProblemError(404, 'NOT_FOUND', 'Not found', 'No organization has this id.');
    return state;
  }
}
