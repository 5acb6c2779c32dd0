// What access needs to know of organizations, answered by the module that keeps them: whether one exists,
// and which role a user has in it, as its own stream has it (a role changed a moment ago already counts).
import type { MemberRole } from '#domain';

export const ORGANIZATION_ROLES = Symbol('ORGANIZATION_ROLES');

export interface OrganizationRoles {
  exists(organizationId: string): Promise<boolean>;
  /** Undefined: no such organization, or the user is no member of it. */
  roleOf(organizationId: string, userId: string): Promise<MemberRole | undefined>;
}
