import { Body, Controller, Delete, HttpCode, Param, Post, Put } from '@nestjs/common';
import { DOMAIN_JOINS, JOIN_ROLES, parseSsoDomain } from '#domain';
import { MeteredCommandBus } from '../metrics/instrumentation.js';
import type { CommandContext } from '#application';
import { OWNERS_AND_ADMINS, RequireAccess } from '../access/require-access.decorator.js';
import { PrincipalContext } from '../http/request-context.js';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { commandAnswer, type CommandAnswer } from '../organizations/command-result.js';
import { ChangeOrganizationCommand } from '../organizations/change-organization.command.js';
import { validOrganizationId } from '../organizations/organization-requests.js';
import { ConfigureSsoCommand } from './configure-sso.command.js';
import { ProblemError } from '../http/problem-error.js';
import { SsoDomainVerification, type DomainCheck } from './sso-domain-verification.js';
import { configureSsoRequest, type ConfigureSsoRequest } from './sso-requests.js';
import { commandAnswerSchema, commandAnswerWords, Operation } from '../http/operation.decorator.js';
import { z } from 'zod';

/** POST /organizations/:id/sso/domains/:domain/verify (DomainCheck). */
const domainCheckAnswer = z.object({
  domain: z.string(),
  lookup: z.enum(['found', 'absent', 'unknown']).describe('unknown: DNS did not answer; nothing recorded'),
  status: z.enum(['pending', 'verified', 'unverified']),
});

const domainJoinRequest = z.strictObject({
  join: z.enum(DOMAIN_JOINS),
  role: z.enum(JOIN_ROLES as ['admin', 'auditor', 'member']).optional(),
});

/**
 * An organization's single sign-on: operators (API keys with organizations:write, the command
 * line) and its owners (the domain refuses admins: FORBIDDEN, requires owner). Answers never hold the secret.
 */
@Controller('organizations/:id/sso')
export class SsoController {
  constructor(
    private readonly commands: MeteredCommandBus,
    private readonly verification: SsoDomainVerification,
  ) {}

  @Put()
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({
    summary:
      "Connect the organization's OpenID Connect provider for single sign-on (SsoConfigured; enterprise plans, owners)",
    description: `${commandAnswerWords}. The client secret is sealed before it is recorded and never answered; left out, the saved one is kept.`,
    answersPosition: true,
    answer: commandAnswerSchema,
    responses: {
      409: 'ENTERPRISE_PLAN_REQUIRED or SSO_DOMAIN_TAKEN',
      422: 'SSO_DISCOVERY_FAILED: the issuer did not answer OIDC discovery',
    },
  })
  async configure(
    @Param('id', validOrganizationId) id: string,
    @Body(new ZodValidationPipe(configureSsoRequest)) body: ConfigureSsoRequest,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(await this.commands.execute(new ConfigureSsoCommand(id, body, context)));
  }

  @Post('domains/:domain/verify')
  @HttpCode(200)
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({
    summary:
      "Check a single sign-on domain's DNS record now (SsoDomainVerified, SsoDomainRecordMissing or SsoDomainUnverified when it changed)",
    description:
      'Looks up the TXT record `_chorus-verification.<domain>`; `lookup` is found, absent, or unknown (DNS did not answer: nothing recorded).',
    answer: domainCheckAnswer,
    responses: {
      200: '{domain, lookup, status}',
      400: 'INVALID_HOSTNAME: not an e-mail domain',
      404: 'NOT_FOUND: not one of the organization’s SSO domains',
      409: 'SSO_DOMAIN_TAKEN: another organization holds it',
    },
  })
  async verifyDomain(
    @Param('id', validOrganizationId) id: string,
    @Param('domain') domain: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<DomainCheck> {
    const parsed = parseSsoDomain(domain);
    if (parsed === null)
      throw new ProblemError(
        400,
        'INVALID_HOSTNAME',
        'The request is not valid',
        `${domain.slice(0, 300)} is not an e-mail domain.`,
      );
    const check = await this.verification.check(id, parsed.ascii, context);
    return { ...check, domain: parsed.unicode };
  }

  @Put('domains/:domain/join')
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({
    summary:
      'How people of a verified domain join: by invitation, or on signing in with a role (DomainJoinSet; owners)',
    description: `${commandAnswerWords}. \`automatic\`: a person who signs in with an address of the domain (password, Google, single sign-on) becomes a member with \`role\` (member unless said; never owner), within the users limit.`,
    answersPosition: true,
    answer: commandAnswerSchema,
    responses: {
      400: 'VALIDATION_FAILED: not a verified domain of the organization, or owner as the role',
      403: 'FORBIDDEN: owners only',
    },
  })
  async setJoin(
    @Param('id', validOrganizationId) id: string,
    @Param('domain') domain: string,
    @Body(new ZodValidationPipe(domainJoinRequest)) body: z.output<typeof domainJoinRequest>,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    const parsed = parseSsoDomain(domain);
    if (parsed === null)
      throw new ProblemError(
        400,
        'INVALID_HOSTNAME',
        'The request is not valid',
        `${domain.slice(0, 300)} is not an e-mail domain.`,
      );
    const data = { domain: parsed.ascii, join: body.join, ...(body.role === undefined ? {} : { role: body.role }) };
    return commandAnswer(
      await this.commands.execute(new ChangeOrganizationCommand(id, { type: 'SetDomainJoin', data }, context)),
    );
  }

  @Delete()
  @RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })
  @Operation({
    summary: 'Turn single sign-on off (SsoDisabled); the sealed secret is forgotten',
    description: commandAnswerWords,
    answersPosition: true,
    answer: commandAnswerSchema,
  })
  async disable(
    @Param('id', validOrganizationId) id: string,
    @PrincipalContext() context: CommandContext,
  ): Promise<CommandAnswer> {
    return commandAnswer(
      await this.commands.execute(new ChangeOrganizationCommand(id, { type: 'DisableSso', data: {} }, context)),
    );
  }
}
