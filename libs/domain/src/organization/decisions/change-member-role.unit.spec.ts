import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import { memberAdded, onChorusPlan, organizationCreated } from '../../testing/organization-events.js';

describe('ChangeMemberRole', () => {
  it("changes a member's role, recording the address and the role it replaces", () => {
    given([...onChorusPlan('teams'), memberAdded(1, 'owner'), memberAdded(2, 'member')])
      .when({ type: 'ChangeMemberRole', data: { userId: 'user-2', role: 'admin' } })
      .then([
        {
          type: 'MemberRoleChanged',
          data: { userId: 'user-2', email: 'user2@example.com', role: 'admin', previousRole: 'member' },
        },
      ]);
  });

  it('promotes a member to owner, and demotes an owner while another owner remains', () => {
    const history = [
      ...onChorusPlan('teams'),
      memberAdded(1, 'owner'),
      memberAdded(2, 'owner'),
      memberAdded(3, 'admin'),
    ];
    given(history)
      .when({ type: 'ChangeMemberRole', data: { userId: 'user-3', role: 'owner' } })
      .then([
        {
          type: 'MemberRoleChanged',
          data: { userId: 'user-3', email: 'user3@example.com', role: 'owner', previousRole: 'admin' },
        },
      ]);
    given(history)
      .when({ type: 'ChangeMemberRole', data: { userId: 'user-1', role: 'member' } })
      .then([
        {
          type: 'MemberRoleChanged',
          data: { userId: 'user-1', email: 'user1@example.com', role: 'member', previousRole: 'owner' },
        },
      ]);
  });

  it('changes nothing when the member already has the role (the last owner included)', () => {
    given([...onChorusPlan('teams'), memberAdded(1, 'owner'), memberAdded(2, 'admin')])
      .when({ type: 'ChangeMemberRole', data: { userId: 'user-2', role: 'admin' } })
      .then([]);
    given([...onChorusPlan('teams'), memberAdded(1, 'owner')])
      .when({ type: 'ChangeMemberRole', data: { userId: 'user-1', role: 'owner' } })
      .then([]);
  });

  it('refuses to demote the last owner (LAST_OWNER)', () => {
    given([...onChorusPlan('teams'), memberAdded(1, 'owner'), memberAdded(2, 'admin')])
      .when({ type: 'ChangeMemberRole', data: { userId: 'user-1', role: 'admin' } })
      .thenThrows('LAST_OWNER', { userId: 'user-1' });
  });

  it('refuses someone who is not a member (NOT_FOUND)', () => {
    given([...onChorusPlan('teams'), memberAdded(1, 'owner')])
      .when({ type: 'ChangeMemberRole', data: { userId: 'user-2', role: 'admin' } })
      .thenThrows('NOT_FOUND', { entity: 'member', userId: 'user-2' });
  });

  it('needs the organization, and a valid user id and role', () => {
    given([])
      .when({ type: 'ChangeMemberRole', data: { userId: 'user-1', role: 'admin' } })
      .thenThrows('NOT_FOUND', { entity: 'organization' });
    given([organizationCreated(), memberAdded(1, 'owner')])
      .when({ type: 'ChangeMemberRole', data: { userId: '', role: 'admin' } })
      .thenThrows('VALIDATION_FAILED', { field: 'userId', reason: 'required' });
    given([organizationCreated(), memberAdded(1, 'owner')])
      .when({ type: 'ChangeMemberRole', data: { userId: 'user-1', role: 'boss' as never } })
      .thenThrows('VALIDATION_FAILED', { field: 'role', reason: 'not_allowed' });
  });

  it('needs no plan: roles are not limited', () => {
    given([organizationCreated(), memberAdded(1, 'owner'), memberAdded(2, 'owner')])
      .when({ type: 'ChangeMemberRole', data: { userId: 'user-2', role: 'member' } })
      .then([
        {
          type: 'MemberRoleChanged',
          data: { userId: 'user-2', email: 'user2@example.com', role: 'member', previousRole: 'owner' },
        },
      ]);
  });
});
