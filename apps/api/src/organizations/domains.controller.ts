import { Body, Controller, Delete, Param, Post } from '@nestjs/common';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import type { z } from 'zod';
import type { CommandContext } from '#application';
import { OWNERS_AND_ADMINS, RequireAccess } from '../access/require-access.decorator.js';
import { PrincipalContext } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { commandAnswer, type CommandAnswer } from './command-result.js';
import { ChangeOrganizationCommand } from './change-organization.command.js';
import { addDomainRequest, validDomain, validOrganizationId } from './organization-requests.js';
import { commandAnswerText, Operation } from '../http/operation.decorator.js';

const MANAGE_DOMAINS = { scope: 'organizations:write', members: OWNERS_AND_ADMINS } as const;

/** The quality-assurance and web analytics domain lists of an organization. */
@Controller('organizations/:id')
export class DomainsController {
  constructor(private readonly commands: MeteredCommandBus) {}

  @Post('quality-assurance/domains')
  @RequireAccess(MANAGE_DOMAINS)
  @Operation({
    summary: 'Add a quality assurance domain',
    ...commandAnswerText,
    responses: { 409: 'LIMIT_EXCEEDED or FEATURE_DISABLED' },
  })
  async addQualityAssuranceDomain(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(addDomainRequest)) body: z.output<typeof addDomainRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(
        new ChangeOrganizationCommand(
          id,
          { type: 'AddQualityAssuranceDomain', data: { domain: body.domain } },
          context,
        ),
      ),
    );
  }

  @Delete('quality-assurance/domains/:domain')
  @RequireAccess(MANAGE_DOMAINS)
  @Operation({ summary: 'Remove a quality assurance domain', ...commandAnswerText })
  async removeQualityAssuranceDomain(
    @Param('id', validOrganizationId) id: string,
    @Param('domain', validDomain) domain: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(
        new ChangeOrganizationCommand(id, { type: 'RemoveQualityAssuranceDomain', data: { domain } }, context),
      ),
    );
  }

  @Post('web-analytics/domains')
  @RequireAccess(MANAGE_DOMAINS)
  @Operation({
    summary: 'Add a web analytics domain',
    ...commandAnswerText,
    responses: { 409: 'LIMIT_EXCEEDED or FEATURE_DISABLED' },
  })
  async addWebAnalyticsDomain(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(addDomainRequest)) body: z.output<typeof addDomainRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(
        new ChangeOrganizationCommand(id, { type: 'AddWebAnalyticsDomain', data: { domain: body.domain } }, context),
      ),
    );
  }

  @Delete('web-analytics/domains/:domain')
  @RequireAccess(MANAGE_DOMAINS)
  @Operation({ summary: 'Remove a web analytics domain', ...commandAnswerText })
  async removeWebAnalyticsDomain(
    @Param('id', validOrganizationId) id: string,
    @Param('domain', validDomain) domain: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(
        new ChangeOrganizationCommand(id, { type: 'RemoveWebAnalyticsDomain', data: { domain } }, context),
      ),
    );
  }
}
