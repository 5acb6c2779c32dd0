import { Reflector } from '@nestjs/core';
import { MANAGING_ROLES, MEMBER_ROLES, type MemberRole } from '#domain';
import type { ApiKeyScope } from './api-keys/api-key-scopes.js';

export type AccessRule = {
  /** The scope an API key needs. */
  scope: ApiKeyScope;
  /**
   * The roles a signed-in user needs in the organization named by the `:id` path parameter.
   * Absent: users may not make this call at all (API keys and the command line only).
   */
  members?: readonly MemberRole[];
};

/** Any member may read their organization (API.md, Organizations). */
export const ANY_MEMBER: readonly MemberRole[] = MEMBER_ROLES;
/** Owners and admins may change their own organization. */
export const OWNERS_AND_ADMINS: readonly MemberRole[] = MANAGING_ROLES;
/** Owners, admins and auditors read an organization's history; members do not (DOMAIN.md). */
export const HISTORY_READERS: readonly MemberRole[] = ['owner', 'admin', 'auditor'];

/**
 * Who may call a route, checked by the global AccessGuard. Routes without it are public.
 * `@RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })`
 */
export const RequireAccess = Reflector.createDecorator<AccessRule>();
