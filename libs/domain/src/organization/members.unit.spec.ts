// Members against the plain rule it indexes, over random histories (fast-check): the list an array would hold.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { MEMBER_ROLES } from './member-roles.js';
import { Members, type Member } from './members.js';

type Change =
  | { kind: 'add'; member: Member }
  | { kind: 'role'; userId: string; role: Member['role'] }
  | { kind: 'remove'; userId: string };

const userId = fc.constantFrom('u1', 'u2', 'u3', 'u4');
const role = fc.constantFrom(...MEMBER_ROLES);
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    member: fc.record({
      userId,
      // Addresses are per person here, in any case, as the decision keeps them.
      email: fc.constantFrom('A@example.com', 'a@example.com', 'b@example.com'),
      role,
      chorusUser: fc.boolean(),
    }),
  }),
  fc.record({ kind: fc.constant('role' as const), userId, role }),
  fc.record({ kind: fc.constant('remove' as const), userId }),
);

const oracle = (list: readonly Member[], next: Change): Member[] => {
  switch (next.kind) {
    case 'add':
      return [...list.filter((member) => member.userId !== next.member.userId), next.member];
    case 'role':
      return list.map((member) => (member.userId === next.userId ? { ...member, role: next.role } : member));
    case 'remove':
      return list.filter((member) => member.userId !== next.userId);
  }
};

const applied = (members: Members, next: Change): Members =>
  next.kind === 'add'
    ? members.with(next.member)
    : next.kind === 'role'
      ? members.withRole(next.userId, next.role)
      : members.without(next.userId);

describe('Members', () => {
  it('holds what the plain list would, in its order, and finds each by id, by address and counts the owners', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 30 }), (changes) => {
        let members = Members.none;
        let list: Member[] = [];
        for (const next of changes) {
          const before = members;
          const beforeList = list;
          members = applied(members, next);
          list = oracle(list, next);
          // Persistent: the value before the change is untouched.
          expect(before.toArray()).toEqual(beforeList);
        }
        expect(members.toArray()).toEqual(list);
        expect(members.size).toBe(list.length);
        expect(members.owners).toBe(list.filter((member) => member.role === 'owner').length);
        for (const id of ['u1', 'u2', 'u3', 'u4']) expect(members.get(id)).toEqual(list.find((m) => m.userId === id));
        // Only the decision keeps addresses unique; where the log has two, the index holds one of them.
        for (const address of ['a@example.com', 'B@EXAMPLE.COM']) {
          const holders = list.filter((member) => member.email.toLowerCase() === address.toLowerCase());
          const found = members.withAddress(address);
          if (holders.length <= 1) expect(found).toEqual(holders[0]);
          else expect(holders).toContainEqual(found);
        }
      }),
    );
  });

  it('adds a batch exactly as one at a time, on whatever list it is given', () => {
    const added = change.filter((next): next is Extract<Change, { kind: 'add' }> => next.kind === 'add');
    fc.assert(
      fc.property(fc.array(change, { maxLength: 15 }), fc.array(added, { maxLength: 15 }), (before, batch) => {
        const from = before.reduce(applied, Members.none);
        const members = batch.map((next) => next.member);
        const batched = from.withAll(members);
        const oneByOne = members.reduce((list, member) => list.with(member), from);
        expect(batched.toArray()).toEqual(oneByOne.toArray());
        expect(batched.owners).toBe(oneByOne.owners);
        for (const id of ['u1', 'u2', 'u3', 'u4']) expect(batched.placeOf(id)).toBe(oneByOne.placeOf(id));
        for (const address of ['a@example.com', 'b@example.com'])
          expect(batched.withAddress(address)).toEqual(oneByOne.withAddress(address));
        // The list it was given is untouched by the batch's changes made in place.
        expect(from.toArray()).toEqual(before.reduce(oracle, []));
      }),
    );
  });

  it('gives a member added again a new place, and keeps the place across a role change', () => {
    const members = Members.of([
      { userId: 'u1', email: 'a@example.com', role: 'owner', chorusUser: false },
      { userId: 'u2', email: 'b@example.com', role: 'member', chorusUser: false },
    ]);
    const promoted = members.withRole('u2', 'admin');
    expect(promoted.placeOf('u2')).toBe(members.placeOf('u2'));
    const again = members.with({ userId: 'u1', email: 'a@example.com', role: 'owner', chorusUser: true });
    expect(again.placeOf('u1')).toBeGreaterThan(members.placeOf('u2') as number);
    expect(again.toArray().map((member) => member.userId)).toEqual(['u2', 'u1']);
  });

  it('is the same value after a change that concerns nobody, and serializes as the list', () => {
    const members = Members.of([{ userId: 'u1', email: 'a@example.com', role: 'owner', chorusUser: false }]);
    expect(members.without('u9')).toBe(members);
    expect(members.withRole('u9', 'admin')).toBe(members);
    expect(JSON.parse(JSON.stringify({ members }))).toEqual({ members: members.toArray() });
  });
});
