import { Reflector } from '@nestjs/core';
import type { MemberRole } from '#domain';
import type { ApiKeyScope } from '#domain';

export type AccessRule = {
  /** The scope an API key needs. */
  scope: ApiKeyScope;
  /**
   * The roles a signed-in user needs in the organization named by the `:id` path parameter.
   * Absent: users may not make this call at all (API keys and the command line only).
   */
  members?: readonly MemberRole[];
};

/** The metadata @RequireAccess records on a route's handler or controller class: what AccessGuard enforces. */
export const AccessRuleMetadata = Reflector.createDecorator<AccessRule>();
