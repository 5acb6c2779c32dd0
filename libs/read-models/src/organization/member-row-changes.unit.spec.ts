import { describe, expect, it } from '@jest/globals';
import { Members, type Member } from '#domain';
import { recordMemberRowChange, type MemberWrite } from './member-row-changes.js';

const member = (userId: string, role: Member['role'] = 'member'): Member =>
  ({ userId, email: `${userId}@example.com`, role }) as Member;

describe('member row changes', () => {
  const ada = member('ada', 'owner');
  const bob = member('bob');
  const cy = member('cy');
  const two = Members.of([ada, bob]);
  const three = two.with(cy);

  it('writes only the row an event touches: an add at the end, a removal, a role change in place', () => {
    const writes = new Map<string, MemberWrite>();
    recordMemberRowChange(writes, two, three, 'cy', 7);
    expect([...writes]).toEqual([['cy', { member: cy, ordinal: 7 }]]);

    const changed = new Map<string, MemberWrite>();
    const promoted = three.withRole('bob', 'admin');
    recordMemberRowChange(changed, three, promoted, 'bob', 8);
    expect([...changed]).toEqual([['bob', { member: promoted.get('bob'), ordinal: undefined }]]);

    const removed = new Map<string, MemberWrite>();
    recordMemberRowChange(removed, three, three.without('bob'), 'bob', 9);
    expect([...removed]).toEqual([['bob', null]]);
  });

  it('gives a member added again a new place, and writes nothing for one who was never there', () => {
    const writes = new Map<string, MemberWrite>();
    const again = three.with(member('ada', 'admin'));
    recordMemberRowChange(writes, three, again, 'ada', 10);
    expect(writes.get('ada')).toEqual({ member: again.get('ada'), ordinal: 10 });

    const none = new Map<string, MemberWrite>();
    recordMemberRowChange(none, three, three.without('zed'), 'zed', 11);
    expect(none.size).toBe(0);
  });

  it('keeps the place an unwritten add gave when the same member changes before the flush', () => {
    const writes = new Map<string, MemberWrite>();
    const added = Members.of([ada]).with(bob);
    recordMemberRowChange(writes, Members.of([ada]), added, 'bob', 3);
    const promoted = added.withRole('bob', 'admin');
    recordMemberRowChange(writes, added, promoted, 'bob', 4);
    expect(writes.get('bob')).toEqual({ member: promoted.get('bob'), ordinal: 3 });
  });
});
