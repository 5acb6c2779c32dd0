import { describe, expect, it } from '@jest/globals';
import { chorusDisabled, chorusEnabled, memberAdded, organizationCreated } from '../testing/organization-events.js';
import { foldOrganization } from './evolve.js';
import { notificationRecipients } from './notification-recipients.js';
import { initialOrganizationState } from './state.js';

const members = [memberAdded(1, 'owner', false), memberAdded(2, 'member', true), memberAdded(3, 'admin', false)];
const recipientsOf = (...events: Parameters<typeof foldOrganization>[0]) =>
  notificationRecipients(foldOrganization([organizationCreated(), ...members, ...events])).map(
    (member) => member.userId,
  );

describe('notificationRecipients (seed section 6)', () => {
  it('notifies every member when Chorus is enabled without a parallel-use setting', () => {
    expect(recipientsOf(chorusEnabled())).toEqual(['user-1', 'user-2', 'user-3']);
  });

  it('notifies every member when parallel use is set to false', () => {
    expect(recipientsOf(chorusEnabled(false))).toEqual(['user-1', 'user-2', 'user-3']);
  });

  it('notifies only the Chorus users when parallel use is on', () => {
    expect(recipientsOf(chorusEnabled(true))).toEqual(['user-2']);
  });

  it('notifies no one when Chorus is not enabled', () => {
    expect(recipientsOf()).toEqual([]);
    expect(recipientsOf(chorusEnabled(), chorusDisabled())).toEqual([]);
  });

  it('notifies no one for an organization that does not exist', () => {
    expect(notificationRecipients(initialOrganizationState)).toEqual([]);
  });

  it('answers the members with their details', () => {
    expect(
      notificationRecipients(
        foldOrganization([organizationCreated(), memberAdded(2, 'member', true), chorusEnabled(true)]),
      ),
    ).toEqual([{ userId: 'user-2', email: 'user2@example.com', role: 'member', chorusUser: true }]);
  });
});
