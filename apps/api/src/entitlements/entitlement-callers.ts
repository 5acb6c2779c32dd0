// Who may evaluate an organization's entitlements: API keys with `entitlements:read` (a key bound to one
// organization sees that one only) and signed-in members of the organization. The organization comes from
// the request's body (OFREP's targetingKey), not its path, so AccessGuard's rule does not apply here.
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { ApiKeyScope } from '#domain';
import { actorOf, type Principal } from '../access/principal.js';
import { PrincipalResolvers } from '../access/principal-resolvers.service.js';
import { identifyCaller, requestContextOf } from '../http/request-context.js';
import { ProblemError } from '../http/problem-error.js';
import { Organizations } from '../organizations/organizations.service.js';

export const ENTITLEMENTS_SCOPE: ApiKeyScope = 'entitlements:read';

@Injectable()
export class EntitlementCallers {
  constructor(
    private readonly resolvers: PrincipalResolvers,
    private readonly organizations: Organizations,
  ) {}

  /**
   * The caller, once it may read entitlements at all (or what `scope` allows): 401 without credentials, 403 for a key
   * without the scope.
   */
  async authenticate(request: Request, scope: ApiKeyScope = ENTITLEMENTS_SCOPE): Promise<Principal> {
    const principal = await this.resolvers.resolve(request);
    if (principal === undefined) {
      throw new ProblemError(
        401,
        'UNAUTHENTICATED',
        'Authentication required',
        'Sign in, or send an API key as "Authorization: Bearer <key>".',
      );
    }
    const context = requestContextOf(request);
    if (context !== undefined) identifyCaller(context, actorOf(principal));
    if (principal.kind === 'api-key' && !principal.scopes.includes(scope)) {
      throw new ProblemError(403, 'FORBIDDEN', 'Not allowed', `This API key does not have the ${scope} scope.`);
    }
    return principal;
  }

  /** Whether the caller may see this organization (whether or not it exists: the answer must not tell). */
  async maySee(principal: Principal, organizationId: string): Promise<boolean> {
    switch (principal.kind) {
      case 'cli':
        return true;
      case 'api-key':
        return principal.organizationId === undefined || principal.organizationId === organizationId;
      case 'user': {
        // From the organization's own stream, as AccessGuard does: a member removed a moment ago sees nothing.
        const { state } = await this.organizations.load(organizationId);
        return state.exists && state.members.has(principal.userId);
      }
    }
  }

  /**
   * Which organizations a change stream may carry: all, or one (a bound key), or those a user is a member of (checked
   * per change).
   */
  scopeOf(principal: Principal): { organizationId: string } | 'all' | 'memberships' {
    if (principal.kind === 'api-key')
      return principal.organizationId === undefined ? 'all' : { organizationId: principal.organizationId };
    return principal.kind === 'user' ? 'memberships' : 'all';
  }
}
