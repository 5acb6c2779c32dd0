// An organization's two-step sign-in (docs/api.md, Two-step sign-in).
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Put, Res } from '@nestjs/common';
import type { Response } from 'express';
import { EVENT_STORE, type EventStore } from '#event-store';
import { READ_MODELS, type ReadModels } from '#read-models';
import { z } from 'zod';
import type { CommandContext } from '#application';
import { ssoDomainOf, userStream, type ExistingOrganization } from '#domain';
import type { Identity, OwnerResetOutcome } from '#identity';
import { OWNERS_AND_ADMINS, RequireAccess } from '../access/require-access.decorator.js';
import { awaitMinPosition } from '../read-models/position-wait.js';
import { MEMBERS_PAGE_DEFAULT, memberCursorText, memberPageFields } from '../read-models/members-page-query.js';
import { CheckedQuery } from '../http/checked-arguments.js';
import { PrincipalContext } from '../http/request-context.js';
import { ProblemError } from '../http/problem-error.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import { commandAnswerText, Operation } from '../http/operation.decorator.js';
import { commandAnswer, type CommandAnswer } from '../organizations/command-result.js';
import { validMemberOrSiteId, validOrganizationId } from '../organizations/organization-requests.js';
import { ChangeOrganizationCommand } from '../organizations/change-organization.command.js';
import { Organizations } from '../organizations/organizations.service.js';
import { IDENTITY } from './identity.provider.js';

const policyRequest = z.strictObject({ required: z.boolean() });

export const twoStepMembersAnswer = z.object({
  required: z.boolean(),
  members: z.array(z.object({ userId: z.string(), email: z.string(), role: z.string(), secondFactor: z.boolean() })),
  total: z.int().describe('The members that match (q), in all pages'),
  next: z.string().nullable().describe('Pass as `after` for the next page; null on the last page'),
  withoutSecondFactor: z.int().describe('How many members, of all of them, have no second factor'),
});

/** With none of them, every member (until 1.0, as GET /organizations/:id); with any, a page. */
const twoStepMembersQuery = z.strictObject(memberPageFields);
const validTwoStepMembersQuery = new ZodValidationPipe(twoStepMembersQuery);
type TwoStepMembersQuery = z.output<typeof twoStepMembersQuery>;

export type TwoStepMembers = z.output<typeof twoStepMembersAnswer>;

const ownerResetAnswer = z.object({ outcome: z.enum(['reset', 'confirmation-mailed', 'nothing-to-reset']) });

@Controller('organizations/:id/two-step-sign-in')
export class OrganizationTwoStepController {
  constructor(
    @Inject(IDENTITY) private readonly identity: Identity,
    private readonly organizations: Organizations,
    private readonly commands: MeteredCommandBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_MODELS) private readonly readModels: ReadModels,
  ) {}

  @Get()
  @RequireAccess({ scope: 'organizations:read', members: OWNERS_AND_ADMINS })
  @Operation({
    summary: 'Whether two-step sign-in is required, and which members have a second factor',
    answer: twoStepMembersAnswer,
    responses: {
      400: 'VALIDATION_FAILED',
      503: 'NOT_YET_CONSISTENT: this node has not yet read the log as far as it was when asked; retry shortly',
    },
  })
  async members(
    @Param('id', validOrganizationId) id: string,
    @CheckedQuery(validTwoStepMembersQuery) query: TwoStepMembersQuery,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TwoStepMembers> {
    const state = await this.existing(id);
    // The read model, once it holds every factor change recorded before this request, on any node: as exact as reading
    // each member's stream, which took seconds for an organization of ten thousand.
    const head = await this.store.headPosition();
    await awaitMinPosition(this.readModels, { minPosition: head }, response);
    const paged = query.after !== undefined || query.limit !== undefined || query.q !== undefined;
    const page = paged
      ? this.readModels.organizations.membersPage(id, {
          limit: query.limit ?? MEMBERS_PAGE_DEFAULT,
          ...(query.after === undefined ? {} : { after: query.after }),
          ...(query.q === undefined ? {} : { q: query.q }),
        })
      : undefined;
    const members = page?.members ?? state.members.toArray();
    const withSecondFactor = this.readModels.memberSecurity.withSecondFactor(members.map((member) => member.userId));
    const withFactorInAll = this.readModels.memberSecurity.membersWithSecondFactor(id);
    return {
      required: state.twoStepSignInRequired ?? false,
      members: members.map(({ userId, email, role }) => ({
        userId,
        email,
        role,
        secondFactor: withSecondFactor.has(userId),
      })),
      total: page?.total ?? members.length,
      next: page?.next === undefined ? null : memberCursorText(page.next),
      withoutSecondFactor: Math.max(0, state.members.size - withFactorInAll),
    };
  }

  @Put()
  @RequireAccess({ scope: 'organizations:write', members: ['owner'] })
  @Operation({
    summary: 'Require two-step sign-in of every member, or not (TwoStepSignInPolicySet)',
    ...commandAnswerText,
  })
  async setPolicy(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(policyRequest)) { required }: z.output<typeof policyRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(
        new ChangeOrganizationCommand(id, { type: 'SetTwoStepSignInPolicy', data: { required } }, context),
      ),
    );
  }

  /**
   * An account the organization answers for loses its factors at once; any other member must confirm a mailed link
   * first.
   */
  @Delete('members/:userId')
  @HttpCode(200)
  @RequireAccess({ scope: 'organizations:write', members: ['owner'] })
  @Operation({
    summary:
      "Reset a member's second factors (a lost phone): at once for an account the organization answers for, else once the member confirms a mailed link",
    answer: ownerResetAnswer,
    responses: {
      200: '{outcome: reset | confirmation-mailed | nothing-to-reset}',
      403: 'FORBIDDEN: your own factors are changed on the Account page',
      404: 'NOT_FOUND: not a member of this organization',
    },
  })
  async reset(
    @Param('id', validOrganizationId) id: string,
    @Param('userId', validMemberOrSiteId) userId: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<{ outcome: OwnerResetOutcome }> {
    const state = await this.existing(id);
    const member = state.members.get(userId);
    if (member === undefined)
      throw new ProblemError(404, 'NOT_FOUND', 'Not found', 'No member of this organization has this id.');
    // An owner's own factors need more than their session alone (the Account page).
    if (context.actor === `user:${userId}`)
      throw new ProblemError(403, 'FORBIDDEN', 'Not allowed', 'Change your own two-step sign-in on your Account page.');
    const answersFor = await this.answersFor(state, member.email, userId);
    return { outcome: await this.identity.ownerResets.reset(userId, { id, name: state.name }, answersFor, context) };
  }

  private async answersFor(state: ExistingOrganization, email: string, userId: string): Promise<boolean> {
    if (ssoDomainOf(state, email) !== null) return true;
    const first = await this.store.readStream(userStream(userId), { maxCount: 1 });
    return first.found && first.events[0]?.metadata.actor === `sso:${state.id}`;
  }

  private async existing(id: string) {
    const { state } = await this.organizations.load(id);
    if (!state.exists) throw new ProblemError(404, 'NOT_FOUND', 'Not found', 'No organization has this id.');
    return state;
  }
}
