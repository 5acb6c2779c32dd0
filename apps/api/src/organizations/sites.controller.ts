import { Body, Controller, Delete, Param, Post } from '@nestjs/common';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import type { z } from 'zod';
import type { CommandContext } from '#application';
import { OWNERS_AND_ADMINS, RequireAccess } from '../access/require-access.decorator.js';
import { PrincipalContext } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { commandAnswer, type CommandAnswer } from './command-result.js';
import { AddSiteCommand } from './add-site.command.js';
import { ChangeOrganizationCommand } from './change-organization.command.js';
import { addSiteRequest, validMemberOrSiteId, validOrganizationId } from './organization-requests.js';
import { commandAnswerText, Operation } from '../http/operation.decorator.js';
import { addSiteAnswer } from './organization-responses.js';

/** Sites (content sections) of an organization. */
@Controller('organizations/:id/sites')
export class SitesController {
  constructor(private readonly commands: MeteredCommandBus) {}

  /** Answers the new site's `siteId` too. */
  @Post()
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({
    summary: 'Add a site (SiteAdded)',
    ...commandAnswerText,
    answer: addSiteAnswer,
    responses: { 409: 'LIMIT_EXCEEDED, FEATURE_DISABLED or NO_PLAN' },
  })
  async add(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(addSiteRequest)) body: z.output<typeof addSiteRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer & { siteId: string }> {
    return commandAnswer(await this.commands.execute(new AddSiteCommand(id, body, context)));
  }

  @Delete(':siteId')
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({ summary: 'Remove a site (SiteRemoved)', ...commandAnswerText })
  async remove(
    @Param('id', validOrganizationId) id: string,
    @Param('siteId', validMemberOrSiteId) siteId: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(new ChangeOrganizationCommand(id, { type: 'RemoveSite', data: { siteId } }, context)),
    );
  }
}
