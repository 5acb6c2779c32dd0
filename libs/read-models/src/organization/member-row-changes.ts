// An enterprise has thousands of members: rewriting or even comparing them all for each change would make a
// projection's cost grow with it. Every member event names the one member it concerns.
import type { Member, Members } from '#domain';

/** `ordinal` undefined keeps the row's place (a role change); null deletes the row. */
export type MemberWrite = { member: Member; ordinal: number | undefined } | null;

/**
 * The row write of `userId` between two member lists: evolve never mutates, so an unchanged member is the same object;
 * one added, or added again (a new place in the list), takes the event's revision as its place.
 */
export function recordMemberRowChange(
  writes: Map<string, MemberWrite>,
  before: Members,
  after: Members,
  userId: string,
  revision: number,
): void {
  const now = after.get(userId);
  if (now === undefined) {
    if (before.has(userId)) writes.set(userId, null);
    return;
  }
  if (before.get(userId) === now) return;
  if (before.has(userId) && before.placeOf(userId) === after.placeOf(userId)) {
    // The pending write keeps the place it gave (an add and a change before one flush).
    const pending = writes.get(userId);
    writes.set(userId, { member: now, ordinal: pending?.ordinal });
  } else {
    writes.set(userId, { member: now, ordinal: revision });
  }
}
