import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { CORRELATION_ID_HEADER } from '../http/correlation-id.js';
import { identifyCaller, requestContextOf } from '../http/request-context.js';
import { ProblemError } from '../http/problem-error.js';
import { organizationIdSchema } from '../http/organization-ids.js';
import { actorOf, type Principal } from './principal.js';
import { PrincipalResolvers } from './principal-resolvers.service.js';
import { AccessRuleMetadata, type AccessRule } from './access-rule.js';
import { ORGANIZATION_ROLES, type OrganizationRoles } from './organization-roles.js';

function organizationOf(request: Request): string | undefined {
  const parsed = organizationIdSchema.safeParse(request.params.id);
  return parsed.success ? parsed.data : undefined;
}

type Handler = ReturnType<ExecutionContext['getHandler']>;
type ControllerClass = ReturnType<ExecutionContext['getClass']>;

/**
 * Membership is read from the organization's own folded stream, so a member removed a moment ago is refused at once.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  /**
   * The Reflector's metadata walk done once per route, not per request; keyed by handler and class (a class-level
   * rule).
   */
  private readonly rules = new WeakMap<Handler, WeakMap<ControllerClass, { rule: AccessRule | undefined }>>();

  constructor(
    private readonly reflector: Reflector,
    private readonly resolvers: PrincipalResolvers,
    @Inject(ORGANIZATION_ROLES) private readonly roles: OrganizationRoles,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule = this.ruleOf(context.getHandler(), context.getClass());
    if (rule === undefined || context.getType() !== 'http') return true;
    const request = context.switchToHttp().getRequest<Request>();
    const principal = await this.resolvers.resolve(request);
    if (principal === undefined) {
      throw new ProblemError(
        401,
        'UNAUTHENTICATED',
        'Authentication required',
        'Sign in, or send an API key as "Authorization: Bearer <key>".',
      );
    }
    const requestContext = requestContextOf(request);
    if (requestContext !== undefined) {
      identifyCaller(requestContext, actorOf(principal));
      context.switchToHttp().getResponse<Response>().setHeader(CORRELATION_ID_HEADER, requestContext.correlationId);
    }
    if (!(await this.allows(principal, rule, request))) {
      throw new ProblemError(403, 'FORBIDDEN', 'Not allowed', 'Your credentials do not allow this call.');
    }
    return true;
  }

  private ruleOf(handler: Handler, type: ControllerClass): AccessRule | undefined {
    let byClass = this.rules.get(handler);
    if (byClass === undefined) {
      byClass = new WeakMap();
      this.rules.set(handler, byClass);
    }
    let known = byClass.get(type);
    if (known === undefined) {
      known = { rule: this.reflector.getAllAndOverride(AccessRuleMetadata, [handler, type]) };
      byClass.set(type, known);
    }
    return known.rule;
  }

  private async allows(principal: Principal, rule: AccessRule, request: Request): Promise<boolean> {
    switch (principal.kind) {
      case 'cli':
        return true;
      case 'api-key':
        // A key bound to an organization reaches that organization's routes (`:id`) and nothing else.
        return (
          principal.scopes.includes(rule.scope) &&
          (principal.organizationId === undefined || organizationOf(request) === principal.organizationId)
        );
      case 'user': {
        const roles = rule.members;
        const organizationId = organizationOf(request);
        if (roles === undefined || organizationId === undefined) return false;
        const role = await this.roles.roleOf(organizationId, principal.userId);
        return role !== undefined && roles.includes(role);
      }
    }
  }
}
