import { describe, it } from '@jest/globals';
import { given } from '../testing/given-when-then.js';
import { memberAdded, onChorusPlan } from '../testing/organization-events.js';
import type { OrganizationCommand } from './commands.js';
import { memberRequester } from './requester.js';

// user-1 owner, user-2 admin, user-3 member, user-4 auditor, user-5 a second owner.
const team = [
  ...onChorusPlan('teams'),
  memberAdded(1, 'owner'),
  memberAdded(2, 'admin'),
  memberAdded(3, 'member'),
  memberAdded(4, 'auditor'),
];
const owner = { requester: memberRequester('user-1') };
const admin = { requester: memberRequester('user-2') };

const add = (role: string): OrganizationCommand =>
  ({ type: 'AddMember', data: { userId: 'user-9', email: 'new@example.com', role } }) as OrganizationCommand;
const remove = (n: number): OrganizationCommand => ({ type: 'RemoveMember', data: { userId: `user-${n}` } });
const changeRole = (n: number, role: string): OrganizationCommand =>
  ({ type: 'ChangeMemberRole', data: { userId: `user-${n}`, role } }) as OrganizationCommand;

const changes: OrganizationCommand[] = [
  add('member'),
  remove(3),
  changeRole(3, 'admin'),
  { type: 'AddSite', data: { siteId: 'site-1', name: 'Shop', hostname: 'shop.example.com' } },
  { type: 'AddQualityAssuranceDomain', data: { domain: 'qa.example.com' } },
  { type: 'RemoveWebAnalyticsDomain', data: { domain: 'wa.example.com' } },
];

describe('who may change an organization (docs/domain.md, Members and roles)', () => {
  describe('only owners add, remove, promote or demote owners', () => {
    it('an owner adds an owner', () => {
      given(team, owner)
        .when(add('owner'))
        .then([
          {
            type: 'MemberAdded',
            data: { userId: 'user-9', email: 'new@example.com', role: 'owner', chorusUser: false },
          },
        ]);
    });

    it('an admin may not add an owner (the first step of taking an organization over)', () => {
      given(team, admin).when(add('owner')).thenThrows('FORBIDDEN', { requires: 'owner' });
    });

    it('an admin may not remove an owner, even when another owner would remain', () => {
      given([...team, memberAdded(5, 'owner')], admin)
        .when(remove(1))
        .thenThrows('FORBIDDEN', { requires: 'owner' });
    });

    it('an admin may not promote anyone to owner, nor demote an owner', () => {
      given(team, admin).when(changeRole(3, 'owner')).thenThrows('FORBIDDEN', { requires: 'owner' });
      given([...team, memberAdded(5, 'owner')], admin)
        .when(changeRole(1, 'admin'))
        .thenThrows('FORBIDDEN', { requires: 'owner' });
    });

    it('an owner promotes to owner and demotes an owner; the last owner stays one (LAST_OWNER)', () => {
      given(team, owner)
        .when(changeRole(2, 'owner'))
        .then([
          {
            type: 'MemberRoleChanged',
            data: { userId: 'user-2', email: 'user2@example.com', role: 'owner', previousRole: 'admin' },
          },
        ]);
      given([...team, memberAdded(5, 'owner')], owner)
        .when(changeRole(5, 'member'))
        .then([
          {
            type: 'MemberRoleChanged',
            data: { userId: 'user-5', email: 'user5@example.com', role: 'member', previousRole: 'owner' },
          },
        ]);
      given(team, owner).when(changeRole(1, 'admin')).thenThrows('LAST_OWNER', { userId: 'user-1' });
    });

    it('an owner removes another owner; the last owner stays (LAST_OWNER)', () => {
      given([...team, memberAdded(5, 'owner')], owner)
        .when(remove(5))
        .then([{ type: 'MemberRemoved', data: { userId: 'user-5' } }]);
      given(team, owner).when(remove(1)).thenThrows('LAST_OWNER', { userId: 'user-1' });
    });
  });

  describe('owners and admins manage everyone else', () => {
    it.each(['admin', 'member', 'auditor'] as const)('an admin adds an %s', (role) => {
      given(team, admin)
        .when(add(role))
        .then([{ type: 'MemberAdded', data: { userId: 'user-9', email: 'new@example.com', role, chorusUser: false } }]);
    });

    it('an admin changes roles among admin, member and auditor', () => {
      given(team, admin)
        .when(changeRole(3, 'auditor'))
        .then([
          {
            type: 'MemberRoleChanged',
            data: { userId: 'user-3', email: 'user3@example.com', role: 'auditor', previousRole: 'member' },
          },
        ]);
    });

    it.each([2, 3, 4])('an admin removes user-%i (admin, member, auditor)', (n) => {
      given([...team, memberAdded(6, 'admin')], { requester: memberRequester('user-6') })
        .when(remove(n))
        .then([{ type: 'MemberRemoved', data: { userId: `user-${n}` } }]);
    });
  });

  describe('members, auditors and strangers change nothing', () => {
    const readers = [
      ['a member', 'user-3'],
      ['an auditor', 'user-4'],
      ['someone who is not a member', 'user-77'],
    ] as const;
    for (const [who, userId] of readers) {
      it.each(changes.map((command) => [command.type, command] as const))(
        `${who}: %s is FORBIDDEN`,
        (_type, command) => {
          given(team, { requester: memberRequester(userId) })
            .when(command)
            .thenThrows('FORBIDDEN', { requires: 'owner-or-admin' });
        },
      );
    }

    it('a member removed a moment ago is a stranger: the state the decision is made on says so', () => {
      given([...team, { type: 'MemberRemoved', data: { userId: 'user-2' } }], admin)
        .when(add('member'))
        .thenThrows('FORBIDDEN', { requires: 'owner-or-admin' });
    });
  });

  it('operators (API keys, the command line, billing) are bound by their scopes, not by roles', () => {
    given(team)
      .when(add('owner'))
      .then([
        { type: 'MemberAdded', data: { userId: 'user-9', email: 'new@example.com', role: 'owner', chorusUser: false } },
      ]);
  });

  it('checks the organization exists first (NOT_FOUND), and the data after the role', () => {
    given([], admin).when(add('owner')).thenThrows('NOT_FOUND', { entity: 'organization' });
    given(team, admin).when(add('superuser')).thenThrows('VALIDATION_FAILED', { field: 'role', reason: 'not_allowed' });
    given(team, { requester: memberRequester('user-3') })
      .when(add('superuser'))
      .thenThrows('FORBIDDEN', { requires: 'owner-or-admin' });
  });
});
