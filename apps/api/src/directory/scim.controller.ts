// SCIM 2.0 (RFC 7643/7644) at /scim/v2, for an organization's identity provider (docs/directory.md). Bodies are
// read raw, without a pipe: SCIM's own refusals (scim-protocol.ts) answer in its error schema.
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
import { OrganizationDirectory, type ScimCaller } from './directory.service.js';
import {
  groupResourceType,
  groupSchema,
  listOf,
  MAX_SCIM_RESULTS,
  serviceProviderConfig,
  userResourceType,
  userSchema,
} from './scim-discovery.js';
import {
  GROUP_SCHEMA,
  groupFilterOf,
  groupInputOf,
  matchesGroupFilter,
  patchedGroup,
  scimGroupOf,
} from './scim-groups.js';
import {
  pageOf,
  patchedUser,
  SCIM_MEDIA_TYPE,
  SCIM_PATH,
  ScimError,
  scimUserOf,
  USER_SCHEMA,
  userFilterOf,
  userInputFrom,
  userInputOf,
} from './scim-protocol.js';
import { Caller, ScimTokenGuard } from './scim-token.guard.js';

const scim = (schema: z.ZodType) => ({ mediaType: SCIM_MEDIA_TYPE, schema });
const resource = z.looseObject({ schemas: z.array(z.string()), id: z.string().optional() });
const list = z.looseObject({
  schemas: z.array(z.string()),
  totalResults: z.int(),
  startIndex: z.int(),
  itemsPerPage: z.int(),
  Resources: z.array(z.looseObject({})),
});
const scimGroup = z.looseObject({ schemas: z.array(z.string()), id: z.string(), displayName: z.string() });
const scimUser = z.looseObject({
  schemas: z.array(z.string()),
  id: z.string(),
  userName: z.string(),
  active: z.boolean(),
});
const SCIM_REFUSALS = {
  401: 'no directory token, or a revoked one (SCIM error schema)',
  404: 'not a user of this organization’s directory',
};
const WRITE_REFUSALS = {
  400: 'invalidValue: not in a verified domain of the organization; invalidSyntax; mutability',
  409: 'uniqueness: the userName or externalId is another user’s; the users limit (detail says so); mutability: the last owner',
};

@Controller(SCIM_PATH.slice(1))
@UseGuards(ScimTokenGuard)
export class ScimController {
  constructor(
    private readonly directory: OrganizationDirectory,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Get('ServiceProviderConfig')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({ summary: 'SCIM: what this service provider supports', answer: scim(resource), responses: SCIM_REFUSALS })
  providerConfig(): Record<string, unknown> {
    return serviceProviderConfig(this.config.publicUrl);
  }

  @Get('ResourceTypes')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({ summary: 'SCIM: the resource types (User)', answer: scim(list), responses: SCIM_REFUSALS })
  resourceTypes(): Record<string, unknown> {
    return listOf([userResourceType(this.config.publicUrl), groupResourceType(this.config.publicUrl)]);
  }

  @Get('ResourceTypes/:name')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({ summary: 'SCIM: one resource type', answer: scim(resource), responses: SCIM_REFUSALS })
  resourceType(@Param('name') name: string): Record<string, unknown> {
    if (name === 'Group') return groupResourceType(this.config.publicUrl);
    if (name !== 'User') throw new ScimError(404, `No resource type ${name}.`);
    return userResourceType(this.config.publicUrl);
  }

  @Get('Schemas')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({
    summary: 'SCIM: the schemas, with the attributes Chorus keeps',
    answer: scim(list),
    responses: SCIM_REFUSALS,
  })
  schemas(): Record<string, unknown> {
    return listOf([userSchema(this.config.publicUrl), groupSchema(this.config.publicUrl)]);
  }

  @Get('Schemas/:id')
  @Header('Content-Type', SCIM_MEDIA_TYPE)
  @Operation({ summary: 'SCIM: one schema', answer: scim(resource), responses: SCIM_REFUSALS })
  schema(@Param('id') id: string): Record<string, unknown> {
    if (id === GROUP_SCHEMA) return groupSchema(this.config.publicUrl);
    if (id !== USER_SCHEMA) throw new ScimError(404, `No schema ${id}.`);
    return userSchema(this.config.publicUrl);
  }

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
    const groups = (await this.directory.groups(caller.organizationId)).filter(
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
      await this.directory.createGroup(caller.organizationId, groupInputOf(body), context),
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
    return scimGroupOf(await this.directory.group(caller.organizationId, groupId), this.config.publicUrl, withMembers);
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
    const { displayName, externalId, members } = await this.directory.group(caller.organizationId, groupId);
    const patched = patchedGroup(
      { displayName, members: [...members], ...(externalId === undefined ? {} : { externalId }) },
      body,
    );
    await this.directory.updateGroup(caller.organizationId, groupId, patched, context);
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
    const replaced = await this.directory.updateGroup(caller.organizationId, groupId, groupInputOf(body), context);
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
    await this.directory.deleteGroup(caller.organizationId, groupId, context);
  }
}
