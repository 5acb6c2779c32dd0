import { describe, expect, it } from '@jest/globals';
import type { Member } from '#domain';
import { recordMemberRowChanges, type MemberWrite } from './member-row-changes.js';

const member = (userId: string, role: Member['role'] = 'member'): Member =>
  ({ userId, email: `${userId}@example.com`, role }) as Member;

describe('member row changes', () => {
  const ada = member('ada', 'owner');
  const bob = member('bob');
  const cy = member('cy');

  it('writes only the rows an event touches: an add at the end, a removal, a role change in place', () => {
    const writes = new Map<string, MemberWrite>();
    recordMemberRowChanges(writes, [ada, bob], [ada, bob, cy], 7);
    expect([...writes]).toEqual([['cy', { member: cy, ordinal: 7 }]]);

    const changed = new Map<string, MemberWrite>();
    const bobAdmin = member('bob', 'admin');
    recordMemberRowChanges(changed, [ada, bob, cy], [ada, bobAdmin, cy], 8);
    expect([...changed]).toEqual([['bob', { member: bobAdmin, ordinal: undefined }]]);

    const removed = new Map<string, MemberWrite>();
    recordMemberRowChanges(removed, [ada, bob, cy], [ada, cy], 9);
    expect(removed.get('bob')).toBeNull();
    // The others keep their rows: a place is an order, not an index.
    expect([...removed.keys()]).toEqual(['bob']);
  });

  it('keeps the place an unwritten add gave when the same member changes before the flush', () => {
    const writes = new Map<string, MemberWrite>();
    recordMemberRowChanges(writes, [ada], [ada, bob], 3);
    const bobAdmin = member('bob', 'admin');
    recordMemberRowChanges(writes, [ada, bob], [ada, bobAdmin], 4);
    expect(writes.get('bob')).toEqual({ member: bobAdmin, ordinal: 3 });
  });
});
