// Who a directory's changes are recorded as, and the roles its groups give (docs/directory.md, Groups and roles).
import { DomainError } from '../errors.js';
import type { MemberRole } from '../organization/member-roles.js';
import type { Members } from '../organization/members.js';
import type { Directory } from './directory.js';

/** Strongest first: a person in several mapped groups gets the first of these that any of them maps to. */
export const ROLE_STRENGTH: readonly MemberRole[] = ['owner', 'admin', 'auditor', 'member'];

/** The role the provider's groups give each user resource in a mapped group: one pass over every group's members. */
function rolesFromGroups(state: Directory): ReadonlyMap<string, MemberRole> {
  const mapped = new Map(Object.entries(state.groupRoles).map(([name, role]) => [name.toLowerCase(), role]));
  const strongest = new Map<string, MemberRole>();
  for (const group of state.groups) {
    const role = mapped.get(group.displayName.toLowerCase());
    if (role === undefined) continue;
    for (const resourceId of group.members) {
      const held = strongest.get(resourceId);
      if (held === undefined || ROLE_STRENGTH.indexOf(role) < ROLE_STRENGTH.indexOf(held))
        strongest.set(resourceId, role);
    }
  }
  return strongest;
}

/** The role the provider's groups give a user; undefined when no group of theirs is mapped. */
export const roleFromGroups = (state: Directory, resourceId: string): MemberRole | undefined =>
  rolesFromGroups(state).get(resourceId);

/** `scim:<token id>`: the actor of every change a directory token makes. */
export const scimActor = (tokenId: string): string => `scim:${tokenId}`;

/**
 * The role changes the mapping asks of the `concerned` provisioned members, active and still members, in the order
 * that keeps an owner at every step (promotions to owner first, demotions of owners last); none before any group is
 * mapped. Throws LAST_OWNER when they would remove the last owner, so that none is made; an organization with no owner
 * yet (made by an operator) maps its groups as it likes.
 */
export function roleChangesFromGroups(
  directory: Directory,
  members: Members,
  concerned: ReadonlySet<string>,
): { userId: string; role: MemberRole }[] {
  if (Object.keys(directory.groupRoles).length === 0) return [];
  const changes: { userId: string; from: MemberRole; to: MemberRole }[] = [];
  // Each concerned user looked up, not searched for: a group of 10,000 changes without 10,000 passes over the members.
  const roles = rolesFromGroups(directory);
  for (const resourceId of concerned) {
    const user = directory.users.get(resourceId);
    if (user === undefined || !user.active) continue;
    const member = members.get(user.userId);
    const to = roles.get(user.resourceId) ?? 'member';
    if (member !== undefined && member.role !== to) changes.push({ userId: user.userId, from: member.role, to });
  }
  const owners = members.owners;
  const remaining =
    owners -
    changes.filter((change) => change.from === 'owner').length +
    changes.filter((change) => change.to === 'owner').length;
  // Only a change that removes the last owner is refused: one that leaves none where there was none removes nobody.
  if (owners > 0 && remaining === 0) {
    throw new DomainError(
      'LAST_OWNER',
      'This change would leave the organization without an owner: put an owner in a group mapped to owner first.',
      {},
    );
  }
  const rank = (change: { from: MemberRole; to: MemberRole }): number =>
    change.to === 'owner' ? 0 : change.from === 'owner' ? 2 : 1;
  return changes.sort((a, b) => rank(a) - rank(b)).map(({ userId, to }) => ({ userId, role: to }));
}
