import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import {
  chorusPlanAssigned,
  memberAdded,
  membersAdded,
  onChorusPlan,
  organizationCreated,
} from '../../testing/organization-events.js';
import type { AddMember } from './add-member.js';

const addMember = (data: Partial<AddMember['data']> = {}): AddMember => ({
  type: 'AddMember',
  data: { userId: 'user-9', email: 'new@example.com', role: 'member', ...data },
});

describe('AddMember', () => {
  it('adds a member, not a Chorus user unless flagged, with the e-mail trimmed', () => {
    given([...onChorusPlan('teams'), ...membersAdded(1)])
      .when(addMember({ email: '  New@Example.com ' }))
      .then([
        {
          type: 'MemberAdded',
          data: { userId: 'user-9', email: 'New@Example.com', role: 'member', chorusUser: false },
        },
      ]);
  });

  it.each(['owner', 'admin', 'member', 'auditor'] as const)(
    'adds a member with role %s, flagged as a Chorus user',
    (role) => {
      given([...onChorusPlan('teams'), ...membersAdded(1)])
        .when(addMember({ role, chorusUser: true }))
        .then([{ type: 'MemberAdded', data: { userId: 'user-9', email: 'new@example.com', role, chorusUser: true } }]);
    },
  );

  it('refuses a user who is already a member (DUPLICATE by user id)', () => {
    given([...onChorusPlan('teams'), memberAdded(1, 'owner')])
      .when(addMember({ userId: 'user-1' }))
      .thenThrows('DUPLICATE', { field: 'userId', value: 'user-1' });
  });

  it('refuses an e-mail address already in use, compared without case (DUPLICATE by e-mail)', () => {
    given([...onChorusPlan('teams'), memberAdded(1, 'owner')])
      .when(addMember({ email: 'USER1@example.COM' }))
      .thenThrows('DUPLICATE', { field: 'email', value: 'USER1@example.COM' });
  });

  it('takes the first owner of an organization with no plan and no members', () => {
    given([organizationCreated()])
      .when(addMember({ role: 'owner' }))
      .then([
        { type: 'MemberAdded', data: { userId: 'user-9', email: 'new@example.com', role: 'owner', chorusUser: false } },
      ]);
  });

  it('refuses anyone else while there is no plan (NO_PLAN)', () => {
    given([organizationCreated()])
      .when(addMember({ role: 'admin' }))
      .thenThrows('NO_PLAN', { resource: 'users' });
    given([organizationCreated(), memberAdded(1, 'owner')])
      .when(addMember({ role: 'owner' }))
      .thenThrows('NO_PLAN', { resource: 'users' });
  });

  it('counts a Chorus plan as no plan while Chorus is disabled', () => {
    given([organizationCreated(), chorusPlanAssigned('enterprise'), memberAdded(1, 'owner')])
      .when(addMember())
      .thenThrows('NO_PLAN', { resource: 'users' });
  });

  it('refuses when the member would exceed the users limit', () => {
    given([...onChorusPlan('solo'), memberAdded(1, 'owner')])
      .when(addMember())
      .thenThrows('LIMIT_EXCEEDED', { resource: 'users', limit: 1, count: 1 });
  });

  it('counts auditors towards the users limit like every member', () => {
    given([
      ...onChorusPlan('teams'),
      memberAdded(1, 'owner'),
      memberAdded(2, 'auditor'),
      memberAdded(3, 'auditor'),
      memberAdded(4, 'member'),
      memberAdded(5, 'auditor'),
    ])
      .when(addMember({ role: 'auditor' }))
      .thenThrows('LIMIT_EXCEEDED', { resource: 'users', limit: 5, count: 5 });
  });

  it.each([
    ['userId', { userId: '' }, 'required'],
    ['userId', { userId: 'has space' }, 'invalid_format'],
    ['email', { email: '' }, 'required'],
    ['email', { email: 'no-at-sign' }, 'invalid_format'],
    ['email', { email: 'two@@example.com' }, 'invalid_format'],
    ['email', { email: 'a@x:' }, 'invalid_format'],
    ['email', { email: 'x<y@z>' }, 'invalid_format'],
    ['email', { email: 'ad\u200ba@example.com' }, 'invalid_format'],
    ['email', { email: `${'x'.repeat(243)}@example.com` }, 'too_long'],
    ['role', { role: 'superuser' }, 'not_allowed'],
    ['chorusUser', { chorusUser: 'yes' }, 'not_a_boolean'],
  ])('refuses an invalid %s (%j)', (field, data, reason) => {
    given([...onChorusPlan('teams'), ...membersAdded(1)])
      .when(addMember(data as Partial<AddMember['data']>))
      .thenThrows('VALIDATION_FAILED', { field, reason });
  });

  it('accepts an e-mail address of 254 characters', () => {
    const email = `${'x'.repeat(242)}@example.com`;
    given([...onChorusPlan('teams'), ...membersAdded(1)])
      .when(addMember({ email }))
      .then([{ type: 'MemberAdded', data: { userId: 'user-9', email, role: 'member', chorusUser: false } }]);
  });
});
