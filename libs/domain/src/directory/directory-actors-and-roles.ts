// Who a directory's changes are recorded as, and the roles its groups give (docs/directory.md, Groups and roles).
import type { MemberRole } from '../organization/member-roles.js';
import type { Directory } from './directory.js';

/** Strongest first: a person in several mapped groups gets the first of these that any of them maps to. */
export const ROLE_STRENGTH: readonly MemberRole[] = ['owner', 'admin', 'auditor', 'member'];

/** The role the provider's groups give a user; undefined when no group of theirs is mapped. */
export function roleFromGroups(state: Directory, resourceId: string): MemberRole | undefined {
  const mapped = new Map(Object.entries(state.groupRoles).map(([name, role]) => [name.toLowerCase(), role]));
  const roles = state.groups.filter((group) => group.members.includes(resourceId)).flatMap((group) => mapped.get(group.displayName.toLowerCase()) ?? []);
  return ROLE_STRENGTH.find((role) => roles.includes(role));
}

/** `scim:<token id>`: the actor of every change a directory token makes. */
export const scimActor = (tokenId: string): string => `scim:${tokenId}`;
