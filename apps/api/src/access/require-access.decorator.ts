import { applyDecorators, UseGuards } from '@nestjs/common';
import { MANAGING_ROLES, MEMBER_ROLES, type MemberRole } from '#domain';
import { AccessGuard } from './access.guard.js';
import { AccessRuleMetadata, type AccessRule } from './access-rule.js';

export type { AccessRule } from './access-rule.js';

/** Any member may read their organization (docs/api.md, Organizations). */
export const ANY_MEMBER: readonly MemberRole[] = MEMBER_ROLES;
/** Owners and admins may change their own organization. */
export const OWNERS_AND_ADMINS: readonly MemberRole[] = MANAGING_ROLES;
/** Owners, admins and auditors read an organization's history; members do not (docs/domain.md). */
export const HISTORY_READERS: readonly MemberRole[] = ['owner', 'admin', 'auditor'];

/**
 * Who may call a route (on a handler, or on a controller class for all of its routes), checked by
 * AccessGuard, which it puts on exactly the routes it marks. Routes without it are public, and run no
 * guard at all: a global guard, run for every route to find no rule on most, cost each public request
 * Nest's guard pipeline (about eight promises, ~1.5% of GET /health's CPU). `KEY` names the metadata.
 * `@RequireAccess({ scope: 'organizations:write', members: OWNERS_AND_ADMINS })`
 */
export const RequireAccess = Object.assign(
  (rule: AccessRule) => applyDecorators(AccessRuleMetadata(rule), UseGuards(AccessGuard)),
  {
    KEY: AccessRuleMetadata.KEY,
  },
);
