import { describe, it } from '@jest/globals';
import { given } from '../../testing/given-when-then.js';
import { memberAdded, onChorusPlan } from '../../testing/organization-events.js';

describe('RemoveMember', () => {
  it('removes a member', () => {
    given([...onChorusPlan('teams'), memberAdded(1, 'owner'), memberAdded(2, 'member')])
      .when({ type: 'RemoveMember', data: { userId: 'user-2' } })
      .then([{ type: 'MemberRemoved', data: { userId: 'user-2' } }]);
  });

  it('removes an owner while another owner remains', () => {
    given([...onChorusPlan('teams'), memberAdded(1, 'owner'), memberAdded(2, 'owner')])
      .when({ type: 'RemoveMember', data: { userId: 'user-1' } })
      .then([{ type: 'MemberRemoved', data: { userId: 'user-1' } }]);
  });

  it('refuses to remove the last owner (LAST_OWNER)', () => {
    given([...onChorusPlan('teams'), memberAdded(1, 'owner'), memberAdded(2, 'admin')])
      .when({ type: 'RemoveMember', data: { userId: 'user-1' } })
      .thenThrows('LAST_OWNER', { userId: 'user-1' });
  });

  it('refuses to remove someone who is not a member (NOT_FOUND)', () => {
    given([...onChorusPlan('teams'), memberAdded(1, 'owner')])
      .when({ type: 'RemoveMember', data: { userId: 'user-2' } })
      .thenThrows('NOT_FOUND', { entity: 'member', userId: 'user-2' });
  });

  it('refuses an empty user id', () => {
    given(onChorusPlan('teams'))
      .when({ type: 'RemoveMember', data: { userId: '' } })
      .thenThrows('VALIDATION_FAILED', { field: 'userId', reason: 'required' });
  });
});
