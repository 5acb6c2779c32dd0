import type { MemberRole } from './events.js';

export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'member', 'auditor'];

/** docs/domain.md: owners and admins manage the organization; members and auditors only read it. */
export const MANAGING_ROLES: readonly MemberRole[] = ['owner', 'admin'];
