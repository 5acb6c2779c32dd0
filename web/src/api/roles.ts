// What to offer; the server decides what happens.
import type { Role } from './contract';

export const ROLE_NAMES: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  auditor: 'Auditor',
};

export const ROLES: readonly Role[] = ['member', 'admin', 'auditor', 'owner'];

export const canManage = (role: Role | undefined): boolean => role === 'owner' || role === 'admin';

/** Only owners configure single sign-on (the domain refuses admins). */
export const canConfigureSso = (role: Role | undefined): boolean => role === 'owner';

export const canReadHistory = (role: Role | undefined): boolean =>
  role === 'owner' || role === 'admin' || role === 'auditor';

/** Only owners add, remove, promote or demote owners; owners and admins everyone else. */
export const canManageRole = (role: Role | undefined, target: Role): boolean =>
  target === 'owner' ? role === 'owner' : canManage(role);
