// The directory's indexed list against the plain array it replaced, over random histories (fast-check).
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DirectoryUserList } from './directory-user-list.js';

type User = { resourceId: string; userId: string; userName: string; externalId?: string; active: boolean };
type Change = { kind: 'put'; user: User } | { kind: 'remove'; resourceId: string };

const resourceId = fc.constantFrom('r1', 'r2', 'r3');
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({
    kind: fc.constant('put' as const),
    user: fc.record(
      {
        resourceId,
        userId: fc.constantFrom('u1', 'u2', 'u3'),
        userName: fc.constantFrom('ada@acme.example', 'ADA@acme.example', 'bob@acme.example'),
        externalId: fc.constantFrom('x1', 'X1', 'x2'),
        active: fc.boolean(),
      },
      { requiredKeys: ['resourceId', 'userId', 'userName', 'active'] },
    ),
  }),
  fc.record({ kind: fc.constant('remove' as const), resourceId }),
);

/** A put changes a resource where it stands, or adds it at the end; a removal takes it out. */
const oracle = (list: readonly User[], next: Change): User[] => {
  if (next.kind === 'remove') return list.filter((user) => user.resourceId !== next.resourceId);
  const at = list.findIndex((user) => user.resourceId === next.user.resourceId);
  return at === -1 ? [...list, next.user] : list.map((user, index) => (index === at ? next.user : user));
};

const applied = (users: DirectoryUserList<User>, next: Change): DirectoryUserList<User> =>
  next.kind === 'put' ? users.with(next.user) : users.without(next.resourceId);

/** Where the log gives a key to several (the decider refuses it), any of them may be found; otherwise the one. */
const expectFound = (found: User | undefined, holders: readonly User[]): void => {
  if (holders.length <= 1) expect(found).toEqual(holders[0]);
  else expect(holders).toContainEqual(found);
};

describe('DirectoryUserList', () => {
  it('holds what the plain list would, in its order, and finds each by resource, userName, account and externalId', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 30 }), (changes) => {
        let users = DirectoryUserList.empty<User>();
        let list: User[] = [];
        for (const next of changes) {
          const before = users;
          const beforeList = list;
          users = applied(users, next);
          list = oracle(list, next);
          expect(before.toArray()).toEqual(beforeList);
        }
        expect(users.toArray()).toEqual(list);
        expect(users.size).toBe(list.length);
        for (const id of ['r1', 'r2', 'r3']) expect(users.get(id)).toEqual(list.find((u) => u.resourceId === id));
        for (const name of ['ada@acme.example', 'BOB@ACME.EXAMPLE'])
          expectFound(
            users.named(name),
            list.filter((u) => u.userName.toLowerCase() === name.toLowerCase()),
          );
        for (const userId of ['u1', 'u2', 'u3']) {
          const holders = list.filter((u) => u.userId === userId);
          expectFound(users.ofAccount(userId), holders);
          expect(new Set(users.allOfAccount(userId))).toEqual(new Set(holders));
        }
        for (const externalId of ['x1', 'X1', 'x2'])
          expectFound(
            users.withExternalId(externalId),
            list.filter((u) => u.externalId === externalId),
          );
      }),
    );
  });

  it('is the same value after removing a resource it does not hold, and serializes as the list', () => {
    const users = DirectoryUserList.empty<User>().with({
      resourceId: 'r1',
      userId: 'u1',
      userName: 'ada@acme.example',
      active: true,
    });
    expect(users.without('r9')).toBe(users);
    expect(JSON.parse(JSON.stringify({ users }))).toEqual({ users: users.toArray() });
  });
});
