// SCIM 2.0 (RFC 7643/7644) Users at /scim/v2/Users, for an organization's identity provider (docs/directory.md). Bodies are
// read raw, without a pipe: SCIM's own refusals (scim-error-answers.ts) answer in its error schema.
import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { Response } from 'express';
import { z } from 'zod';
import type { CommandContext } from '#application';
import { CONFIG, type Config } from '#config';
import { Operation } from '../http/operation.decorator.js';
import { PrincipalContext } from '../http/request-context.js';
import type { ScimCaller } from './directory-tokens.service.js';
import { DirectoryUsers } from './directory-users.service.js';
import { listOf, MAX_SCIM_RESULTS } from './scim-discovery.js';
import { pageOf, SCIM_MEDIA_TYPE, SCIM_PATH, ScimError } from './scim-messages.js';
import { patchedUser, scimUserOf, userFilterOf, userInputFrom, userInputOf } from './scim-users.js';
import { Caller, ScimTokenGuard } from './scim-token.guard.js';

import { list, scim, scimUser, SCIM_REFUSALS, WRITE_REFUSALS } from './scim-operations.js';

@Controller(SCIM_PATH.slice(1))
@UseGuards(ScimTokenGuard)
export class ScimUsersController {
  constructor(
    private readonly directory: DirectoryUsers,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Get('Users')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({
    summary:
      'SCIM: the directory’s users, filtered by userName, externalId or work address (eq), paged by startIndex and count',
    answer: scim(list),
    responses: { ...SCIM_REFUSALS, 400: 'invalidFilter: another filter' },
  })
  async users(
    @Caller() caller: ScimCaller,
    @Query('filter') filter?: unknown,
    @Query('startIndex') startIndex?: unknown,
    @Query('count') count?: unknown,
  ): Promise<Record<string, unknown>> {
    if (filter !== undefined && typeof filter !== 'string')
      throw new ScimError(400, 'One filter at a time.', 'invalidFilter');
    const page = pageOf(startIndex, count, MAX_SCIM_RESULTS);
    const parsed = filter === undefined ? undefined : userFilterOf(filter);
    const users = await this.directory.users(caller.organizationId, parsed);
    const shown = users
      .slice(page.start - 1, page.start - 1 + page.count)
      .map((user) => scimUserOf(user, this.config.publicUrl));
    return listOf(shown, page.start, users.length);
  }

  @Post('Users')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({
    summary: 'SCIM: provision a person: a member of the organization while active',
    answer: scim(scimUser),
    body: z.looseObject({ userName: z.string() }),
    responses: WRITE_REFUSALS,
  })
  async create(
    @Caller() caller: ScimCaller,
    @Body() body: unknown,
    @PrincipalContext() context: CommandContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Record<string, unknown>> {
    const user = scimUserOf(
      await this.directory.provision(caller.organizationId, userInputOf(body), context),
      this.config.publicUrl,
    );
    response.setHeader('Location', (user.meta as { location: string }).location);
    return user;
  }

  @Get('Users/:userId')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({ summary: 'SCIM: one user', answer: scim(scimUser), responses: SCIM_REFUSALS })
  async user(@Caller() caller: ScimCaller, @Param('userId') userId: string): Promise<Record<string, unknown>> {
    return scimUserOf(await this.directory.user(caller.organizationId, userId), this.config.publicUrl);
  }

  @Put('Users/:userId')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({
    summary: 'SCIM: replace a user (active: false ends the membership)',
    answer: scim(scimUser),
    body: z.looseObject({ userName: z.string() }),
    responses: { ...SCIM_REFUSALS, ...WRITE_REFUSALS },
  })
  async replace(
    @Caller() caller: ScimCaller,
    @Param('userId') userId: string,
    @Body() body: unknown,
    @PrincipalContext() context: CommandContext,
  ): Promise<Record<string, unknown>> {
    return scimUserOf(
      await this.directory.replace(caller.organizationId, userId, userInputOf(body), context),
      this.config.publicUrl,
    );
  }

  @Patch('Users/:userId')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({
    summary: 'SCIM: change a user (PatchOp: Okta’s and Entra ID’s forms); answers the user',
    answer: scim(scimUser),
    body: z.looseObject({ Operations: z.array(z.looseObject({ op: z.string() })) }),
    responses: { ...SCIM_REFUSALS, ...WRITE_REFUSALS },
  })
  async patch(
    @Caller() caller: ScimCaller,
    @Param('userId') userId: string,
    @Body() body: unknown,
    @PrincipalContext() context: CommandContext,
  ): Promise<Record<string, unknown>> {
    const current = await this.directory.user(caller.organizationId, userId);
    const patched = patchedUser(userInputFrom(current), body);
    return scimUserOf(
      await this.directory.replace(caller.organizationId, userId, patched, context),
      this.config.publicUrl,
    );
  }

  @Delete('Users/:userId')
  @HttpCode(204)
  @Operation({
    summary: 'SCIM: deprovision a user for good: the membership and the sessions end',
    responses: { ...SCIM_REFUSALS, 409: 'mutability: the last owner' },
  })
  async delete(
    @Caller() caller: ScimCaller,
    @Param('userId') userId: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<void> {
    await this.directory.delete(caller.organizationId, userId, context);
  }
}
