// Who a directory's changes are recorded as, and the roles its groups give (docs/directory.md, Groups and roles).
import { DomainError } from '../errors.js';
import type { MemberRole } from '../organization/member-roles.js';
import type { Member } from '../organization/state.js';
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

/**
 * The role changes the mapping asks of the `concerned` provisioned members, active and still members, in the order
 * that keeps an owner at every step (promotions to owner first, demotions of owners last); none before any group is
 * mapped. Throws LAST_OWNER when they would leave no owner, so that none is made.
 */
export function roleChangesFromGroups(
  directory: Directory,
  members: readonly Member[],
  concerned: ReadonlySet<string>,
): { userId: string; role: MemberRole }[] {
  if (Object.keys(directory.groupRoles).length === 0) return [];
  const changes: { userId: string; from: MemberRole; to: MemberRole }[] = [];
  for (const user of directory.users) {
    const member = members.find((candidate) => candidate.userId === user.userId);
    const to = roleFromGroups(directory, user.resourceId) ?? 'member';
    if (concerned.has(user.resourceId) && user.active && member !== undefined && member.role !== to) {
      changes.push({ userId: user.userId, from: member.role, to });
    }
  }
  const owners = members.filter((member) => member.role === 'owner').length;
  if (owners - changes.filter((change) => change.from === 'owner').length + changes.filter((change) => change.to === 'owner').length === 0) {
    throw new DomainError('LAST_OWNER', 'This change would leave the organization without an owner: put an owner in a group mapped to owner first.', {});
  }
  const rank = (change: { from: MemberRole; to: MemberRole }): number => (change.to === 'owner' ? 0 : change.from === 'owner' ? 2 : 1);
  return changes.sort((a, b) => rank(a) - rank(b)).map(({ userId, to }) => ({ userId, role: to }));
}

