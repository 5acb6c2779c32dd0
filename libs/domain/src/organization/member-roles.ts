import type { MemberRole } from './events.js';

export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'member'];
