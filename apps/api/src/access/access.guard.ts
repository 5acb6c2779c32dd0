import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { requestContextOf } from '../http/request-context.js';
import { ProblemError } from '../http/problem-error.js';
import { organizationIdSchema } from '../organizations/organization-ids.js';
import { Organizations } from '../organizations/organizations.js';
import type { Principal } from './principal.js';
import { PrincipalResolvers } from './principal-resolvers.service.js';
import { RequireAccess, type AccessRule } from './require-access.decorator.js';

/** The organization a route is about: its `:id` path parameter, when that is an organization id. */
function organizationOf(request: Request): string | undefined {
  const parsed = organizationIdSchema.safeParse(request.params.id);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The global guard: routes marked @RequireAccess need a principal (else 401 UNAUTHENTICATED) that the
 * rule allows (else 403 FORBIDDEN). Membership is read from the organization's own folded stream, so a
 * member removed a moment ago is refused at once, whatever the read models say.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly resolvers: PrincipalResolvers,
    private readonly organizations: Organizations,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.reflector.getAllAndOverride(RequireAccess, [context.getHandler(), context.getClass()]);
    if (rule === undefined || context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    const principal = await this.resolvers.resolve(request);
    if (principal === undefined) {
      throw new ProblemError(401, 'UNAUTHENTICATED', 'Authentication required', 'Sign in, or send an API key as "Authorization: Bearer <key>".');
    }
    const requestContext = requestContextOf(request);
    if (requestContext !== undefined) requestContext.principal = principal;
    if (!(await this.allows(principal, rule, request))) {
      throw new ProblemError(403, 'FORBIDDEN', 'Not allowed', 'Your credentials do not allow this call.');
    }
    return true;
  }

  private async allows(principal: Principal, rule: AccessRule, request: Request): Promise<boolean> {
    switch (principal.kind) {
      case 'cli':
        return true;
      case 'api-key':
        // A key bound to an organization reaches that organization's routes (`:id`) and nothing else.
        return principal.scopes.includes(rule.scope) && (principal.organizationId === undefined || organizationOf(request) === principal.organizationId);
      case 'user': {
        const roles = rule.members;
        const organizationId = organizationOf(request);
        if (roles === undefined || organizationId === undefined) return false;
        const { state } = await this.organizations.load(organizationId);
        return state.exists && state.members.some((member) => member.userId === principal.userId && roles.includes(member.role));
      }
    }
  }
}
