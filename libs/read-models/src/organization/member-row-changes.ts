// An enterprise has a thousand members: rewriting them all for each change would make a projection's cost grow with it.
import type { Member } from '#domain';

/** `ordinal` undefined keeps the row's place (a role change); null deletes the row. */
export type MemberWrite = { member: Member; ordinal: number | undefined } | null;

/**
 * evolve never mutates, so an unchanged member is the same object; one added or moved takes the event's revision as its
 * place.
 */
export function recordMemberRowChanges(
  writes: Map<string, MemberWrite>,
  before: readonly Member[],
  after: readonly Member[],
  revision: number,
): void {
  let same = 0;
  while (same < before.length && same < after.length && before[same] === after[same]) same += 1;
  const earlier = new Map<string, { member: Member; index: number }>();
  for (let index = same; index < before.length; index += 1) {
    const member = before[index] as Member;
    earlier.set(member.userId, { member, index });
  }
  for (let index = same; index < after.length; index += 1) {
    const member = after[index] as Member;
    const was = earlier.get(member.userId);
    earlier.delete(member.userId);
    if (was?.member === member) continue;
    if (was !== undefined && was.index === index) {
      // The pending write keeps the place it gave (an add and a change before one flush).
      const pending = writes.get(member.userId);
      writes.set(member.userId, { member, ordinal: pending?.ordinal });
    } else {
      writes.set(member.userId, { member, ordinal: revision });
    }
  }
  for (const userId of earlier.keys()) writes.set(userId, null);
}
