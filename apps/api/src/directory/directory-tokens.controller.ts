// The tokens an organization gives its identity provider for SCIM (docs/api.md, Directory).
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { z } from 'zod';
import type { CommandContext } from '#application';
import { MEMBER_ROLES, type MemberRole } from '#domain';
import { OWNERS_AND_ADMINS, RequireAccess } from '../access/require-access.decorator.js';
import { Operation } from '../http/operation.decorator.js';
import { PrincipalContext } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { validOrganizationId } from '../organizations/organization-requests.js';
import { DirectoryGroups } from './directory-groups.service.js';
import { DirectoryTokens, type TokenSummary } from './directory-tokens.service.js';
import { ScimRequestLog } from './scim-request-log.service.js';

const WRITE = { scope: 'organizations:write', members: OWNERS_AND_ADMINS } as const;

const createTokenRequest = z.strictObject({ name: z.string().trim().min(1).max(100) });
const tokenAnswer = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
const createdTokenAnswer = tokenAnswer.extend({
  token: z.string().describe('chscim_...: shown once; the identity provider sends it as a bearer token'),
});
const tokensAnswer = z.object({ tokens: z.array(tokenAnswer) });
/** Exported: a constant read only in a parameter decorator reads to the linter as unused. */
export const validScimTokenId = new ZodValidationPipe(z.string().regex(/^[0-9a-f]{24}$/, 'must be a token id'));

const answerOf = ({ tokenId, name, createdAt, lastUsedAt, revokedAt }: TokenSummary): z.output<typeof tokenAnswer> => ({
  id: tokenId,
  name,
  createdAt,
  lastUsedAt,
  revokedAt,
});

const role = z.enum(MEMBER_ROLES as [MemberRole, ...MemberRole[]]);
const groupRolesRequest = z
  .record(z.string().trim().min(1).max(256), role)
  .refine((roles) => Object.keys(roles).length <= 100, 'at most 100 groups');
const groupRolesAnswer = z.record(z.string(), role);
const requestsAnswer = z.object({
  requests: z.array(
    z.object({ method: z.string(), path: z.string(), status: z.int(), tokenId: z.string(), at: z.string() }),
  ),
});

@Controller('organizations/:id/scim')
export class DirectoryTokensController {
  constructor(
    private readonly directory: DirectoryTokens,
    private readonly groups: DirectoryGroups,
    private readonly log: ScimRequestLog,
  ) {}

  @Post('tokens')
  @RequireAccess(WRITE)
  @Operation({
    summary: 'Make a SCIM token for the organization’s identity provider (enterprise plans; shown once)',
    answer: createdTokenAnswer,
    responses: { 409: 'ENTERPRISE_PLAN_REQUIRED; LIMIT_EXCEEDED: 10 live tokens already' },
  })
  async create(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(createTokenRequest)) { name }: z.output<typeof createTokenRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<z.output<typeof createdTokenAnswer>> {
    const { token, ...summary } = await this.directory.createToken(id, name, context);
    return { ...answerOf(summary), token };
  }

  @Get('tokens')
  @RequireAccess(WRITE)
  @Operation({
    summary: 'The organization’s SCIM tokens, with their last use (never the tokens themselves)',
    answer: tokensAnswer,
  })
  async list(@Param('id', validOrganizationId) id: string): Promise<z.output<typeof tokensAnswer>> {
    return { tokens: (await this.directory.tokens(id)).map(answerOf) };
  }

  @Delete('tokens/:tokenId')
  @HttpCode(204)
  @RequireAccess(WRITE)
  @Operation({
    summary: 'Revoke a SCIM token: refused at once on every node',
    responses: { 404: 'NOT_FOUND: not a token of this organization' },
  })
  async revoke(
    @Param('id', validOrganizationId) id: string,
    @Param('tokenId', validScimTokenId) tokenId: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<void> {
    await this.directory.revokeToken(id, tokenId, context);
  }

  @Get('requests')
  @RequireAccess(WRITE)
  @Operation({
    summary:
      'The directory’s last 100 SCIM requests and how each ended, newest first (no personal data: no query, no body)',
    answer: requestsAnswer,
  })
  async requests(@Param('id', validOrganizationId) id: string): Promise<z.output<typeof requestsAnswer>> {
    await this.directory.tokens(id);
    return {
      requests: (await this.log.recent(id)).map(({ method, path, status, tokenId, at }) => ({
        method,
        path,
        status,
        tokenId,
        at,
      })),
    };
  }

  /** Owners only: a mapping can make owners. */
  @Put('group-roles')
  @RequireAccess({ scope: 'organizations:write', members: ['owner'] })
  @Operation({
    summary:
      'Map the directory’s groups to roles: a provisioned member gets the strongest role of their groups, member when none',
    answer: groupRolesAnswer,
    responses: { 409: 'ENTERPRISE_PLAN_REQUIRED; LAST_OWNER: the mapping would remove the last owner' },
  })
  async mapGroupRoles(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(groupRolesRequest)) roles: z.output<typeof groupRolesRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<z.output<typeof groupRolesAnswer>> {
    return { ...(await this.groups.mapGroupRoles(id, roles, context)) };
  }

  @Get('group-roles')
  @RequireAccess(WRITE)
  @Operation({ summary: 'The directory’s group-to-role mapping', answer: groupRolesAnswer })
  async groupRoles(@Param('id', validOrganizationId) id: string): Promise<z.output<typeof groupRolesAnswer>> {
    return { ...(await this.groups.groupRoles(id)) };
  }
}
