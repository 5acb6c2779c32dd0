// SCIM 2.0 (RFC 7643/7644) Groups at /scim/v2/Groups, for an organization's identity provider (docs/directory.md). Bodies are
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
import { DirectoryGroups } from './directory-groups.service.js';
import type { ScimCaller } from './directory-tokens.service.js';
import { listOf, MAX_SCIM_RESULTS } from './scim-discovery.js';
import { groupFilterOf, groupInputOf, matchesGroupFilter, patchedGroup, scimGroupOf } from './scim-groups.js';
import { pageOf, SCIM_MEDIA_TYPE, SCIM_PATH, ScimError } from './scim-messages.js';
import { Caller, ScimTokenGuard } from './scim-token.guard.js';

import { list, scim, scimGroup, SCIM_REFUSALS } from './scim-operations.js';

@Controller(SCIM_PATH.slice(1))
@UseGuards(ScimTokenGuard)
export class ScimGroupsController {
  constructor(
    private readonly directoryGroups: DirectoryGroups,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Get('Groups')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({
    summary:
      'SCIM: the directory’s groups, filtered by displayName or externalId (eq); excludedAttributes=members leaves members out',
    answer: scim(list),
    responses: { ...SCIM_REFUSALS, 400: 'invalidFilter: another filter' },
  })
  async groups(
    @Caller() caller: ScimCaller,
    @Query('filter') filter?: unknown,
    @Query('startIndex') startIndex?: unknown,
    @Query('count') count?: unknown,
    @Query('excludedAttributes') excluded?: unknown,
  ): Promise<Record<string, unknown>> {
    if (filter !== undefined && typeof filter !== 'string')
      throw new ScimError(400, 'One filter at a time.', 'invalidFilter');
    const page = pageOf(startIndex, count, MAX_SCIM_RESULTS);
    const parsed = filter === undefined ? undefined : groupFilterOf(filter);
    const groups = (await this.directoryGroups.groups(caller.organizationId)).filter(
      (group) => parsed === undefined || matchesGroupFilter(group, parsed),
    );
    const withMembers = !(typeof excluded === 'string' && /(^|,)\s*members\s*(,|$)/i.test(excluded));
    const shown = groups
      .slice(page.start - 1, page.start - 1 + page.count)
      .map((group) => scimGroupOf(group, this.config.publicUrl, withMembers));
    return listOf(shown, page.start, groups.length);
  }

  @Post('Groups')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({
    summary: 'SCIM: a group of the directory’s users; a group mapped to a role gives its members that role',
    answer: scim(scimGroup),
    body: z.looseObject({ displayName: z.string() }),
    responses: {
      400: 'invalidValue: a member that is not a user of this directory',
      409: 'uniqueness: another group has this displayName; mutability: the last owner',
    },
  })
  async createGroup(
    @Caller() caller: ScimCaller,
    @Body() body: unknown,
    @PrincipalContext() context: CommandContext,
    @Res({ passthrough: true }) response: Response,
  ): Promise<Record<string, unknown>> {
    const group = scimGroupOf(
      await this.directoryGroups.createGroup(caller.organizationId, groupInputOf(body), context),
      this.config.publicUrl,
      true,
    );
    response.setHeader('Location', (group.meta as { location: string }).location);
    return group;
  }

  @Get('Groups/:groupId')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({
    summary: 'SCIM: one group',
    answer: scim(scimGroup),
    responses: { ...SCIM_REFUSALS, 404: 'not a group of this organization’s directory' },
  })
  async group(
    @Caller() caller: ScimCaller,
    @Param('groupId') groupId: string,
    @Query('excludedAttributes') excluded?: unknown,
  ): Promise<Record<string, unknown>> {
    const withMembers = !(typeof excluded === 'string' && /(^|,)\s*members\s*(,|$)/i.test(excluded));
    return scimGroupOf(
      await this.directoryGroups.group(caller.organizationId, groupId),
      this.config.publicUrl,
      withMembers,
    );
  }

  @Patch('Groups/:groupId')
  @HttpCode(204)
  @Operation({
    summary: 'SCIM: change a group: its name, or members added, removed or replaced (Okta’s and Entra ID’s forms)',
    body: z.looseObject({ Operations: z.array(z.looseObject({ op: z.string() })) }),
    responses: { ...SCIM_REFUSALS, 400: 'invalidValue, invalidPath', 409: 'uniqueness; mutability: the last owner' },
  })
  async patchGroup(
    @Caller() caller: ScimCaller,
    @Param('groupId') groupId: string,
    @Body() body: unknown,
    @PrincipalContext() context: CommandContext,
  ): Promise<void> {
    const { displayName, externalId, members } = await this.directoryGroups.group(caller.organizationId, groupId);
    const patched = patchedGroup(
      { displayName, members: [...members], ...(externalId === undefined ? {} : { externalId }) },
      body,
    );
    await this.directoryGroups.updateGroup(caller.organizationId, groupId, patched, context);
  }

  @Put('Groups/:groupId')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({
    summary: 'SCIM: replace a group whole (its name, externalId and members), as PUT on Users does',
    answer: scim(scimGroup),
    body: z.looseObject({ displayName: z.string() }),
    responses: {
      ...SCIM_REFUSALS,
      400: 'invalidValue: a member that is not a user of this directory',
      409: 'uniqueness; mutability: the last owner',
    },
  })
  async replaceGroup(
    @Caller() caller: ScimCaller,
    @Param('groupId') groupId: string,
    @Body() body: unknown,
    @PrincipalContext() context: CommandContext,
  ): Promise<Record<string, unknown>> {
    const replaced = await this.directoryGroups.updateGroup(
      caller.organizationId,
      groupId,
      groupInputOf(body),
      context,
    );
    return scimGroupOf(replaced, this.config.publicUrl, true);
  }

  @Delete('Groups/:groupId')
  @HttpCode(204)
  @Operation({
    summary: 'SCIM: delete a group: its members lose the role it gave',
    responses: { ...SCIM_REFUSALS, 409: 'mutability: the last owner' },
  })
  async deleteGroup(
    @Caller() caller: ScimCaller,
    @Param('groupId') groupId: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<void> {
    await this.directoryGroups.deleteGroup(caller.organizationId, groupId, context);
  }
}
