/** auditor: reads the organization and its history, changes nothing; counts towards the users limit like everyone. */
export type MemberRole = 'owner' | 'admin' | 'member' | 'auditor';

export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'member', 'auditor'];

/** docs/domain.md: owners and admins manage the organization; members and auditors only read it. */
export const MANAGING_ROLES: readonly MemberRole[] = ['owner', 'admin'];
