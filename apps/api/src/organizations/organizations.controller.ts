import { Body, Controller, Delete, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import type { Response } from 'express';
import type { AddOn, OrganizationCommand } from '#domain';
import type { z } from 'zod';
import type { CommandContext } from '#application';
import { RequireAccess } from '../access/require-access.decorator.js';
import { PrincipalContext } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { commandAnswer, type CommandAnswer } from './command-result.js';
import { ChangeOrganizationCommand } from './change-organization.command.js';
import { CreateOrganizationCommand } from './create-organization.command.js';
import {
  assignPlanRequest,
  cancelAddOnQuery,
  chorusRequest,
  createOrganizationRequest,
  limitsRequest,
  purchaseAddOnRequest,
  validAddOn,
  validOrganizationId,
} from './organization-requests.js';
import { commandAnswerText, Operation } from '../http/operation.decorator.js';

/**
 * What the organization has bought (plans, add-ons, the Chorus line, limits and their override) is set by
 * operators and the billing integration (API keys, the command line), never by its own members: an owner
 * could otherwise grant themselves what they have not paid for.
 */
const COMMERCIAL = { scope: 'organizations:write' } as const;

/** The organization itself: creation, plans, add-ons, the Chorus line and limits (docs/api.md, Organizations). */
@Controller('organizations')
export class OrganizationsController {
  constructor(private readonly commands: MeteredCommandBus) {}

  @Post()
  @RequireAccess(COMMERCIAL)
  @Operation({ summary: 'Create an organization', ...commandAnswerText, responses: { 409: 'ALREADY_EXISTS' } })
  async create(
    @Body(new ZodValidationPipe(createOrganizationRequest)) body: z.output<typeof createOrganizationRequest>,
    @PrincipalContext() context: CommandContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<CommandAnswer> {
    const result = await this.commands.execute(new CreateOrganizationCommand(body, context));
    response.location(`/organizations/${encodeURIComponent(result.id)}`);
    return commandAnswer(result);
  }

  @Post(':id/plan')
  @HttpCode(200)
  @RequireAccess(COMMERCIAL)
  @Operation({ summary: 'Assign a plan on a line (PlanAssigned)', ...commandAnswerText })
  async assignPlan(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(assignPlanRequest)) body: z.output<typeof assignPlanRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(new ChangeOrganizationCommand(id, { type: 'AssignPlan', data: body }, context)),
    );
  }

  @Post(':id/add-ons')
  @HttpCode(200)
  @RequireAccess(COMMERCIAL)
  @Operation({ summary: 'Purchase an add-on (AddOnPurchased)', ...commandAnswerText })
  async purchaseAddOn(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(purchaseAddOnRequest)) body: z.output<typeof purchaseAddOnRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(new ChangeOrganizationCommand(id, { type: 'PurchaseAddOn', data: body }, context)),
    );
  }

  @Delete(':id/add-ons/:addOn')
  @RequireAccess(COMMERCIAL)
  @Operation({ summary: 'Cancel an add-on (AddOnCancelled)', ...commandAnswerText })
  async cancelAddOn(
    @Param('id', validOrganizationId) id: string,
    @Param('addOn', validAddOn) addOn: AddOn,
    @Query(new ZodValidationPipe(cancelAddOnQuery)) query: z.output<typeof cancelAddOnQuery>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    const cancellation = query.quantity === undefined ? { addOn } : { addOn, quantity: query.quantity };
    return commandAnswer(
      await this.commands.execute(
        new ChangeOrganizationCommand(id, { type: 'CancelAddOn', data: cancellation }, context),
      ),
    );
  }

  @Put(':id/chorus')
  @RequireAccess(COMMERCIAL)
  @Operation({ summary: 'Enable or disable Chorus (ChorusEnabled / ChorusDisabled)', ...commandAnswerText })
  async setChorus(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(chorusRequest)) body: z.output<typeof chorusRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    const change: OrganizationCommand = body.enabled
      ? { type: 'EnableChorus', data: body.parallelUse === undefined ? {} : { parallelUse: body.parallelUse } }
      : { type: 'DisableChorus', data: {} };
    return commandAnswer(await this.commands.execute(new ChangeOrganizationCommand(id, change, context)));
  }

  @Put(':id/limits')
  @RequireAccess(COMMERCIAL)
  @Operation({ summary: 'Configure the limits (LimitsConfigured)', ...commandAnswerText })
  async configureLimits(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(limitsRequest)) body: z.output<typeof limitsRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(new ChangeOrganizationCommand(id, { type: 'ConfigureLimits', data: body }, context)),
    );
  }
}
