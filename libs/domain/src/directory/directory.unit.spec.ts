import { describe, expect, it } from '@jest/globals';
import { directoryKeepsOut } from './directory-departures.js';
import { deciderSpec } from '../testing/decider-spec.js';
import { roleChangesFromGroups, roleFromGroups } from './directory-actors-and-roles.js';
import { Members } from '../organization/members.js';
import {
  directoryDecider,
  emptyDirectory,
  evolveDirectory,
  type DirectoryEvent,
  type ScimGroupCreated,
  type ScimTokenCreated,
  type ScimUserProvisioned,
} from './directory.js';

const at = '2030-01-01T00:00:00.000Z';
const later = '2030-01-01T00:05:00.000Z';
const directory = deciderSpec(directoryDecider);
const token = (tokenId: string): ScimTokenCreated => ({
  type: 'ScimTokenCreated',
  data: { tokenId, name: `Okta ${tokenId}`, secretHash: 'h', at },
});
const provisioned = (userId: string, userName: string, externalId?: string): ScimUserProvisioned => ({
  type: 'ScimUserProvisioned',
  data: {
    resourceId: `r-${userId}`,
    userId,
    userName,
    active: true,
    at,
    ...(externalId === undefined ? {} : { externalId }),
  },
});

describe('directory tokens', () => {
  it('takes ten live tokens, and an eleventh once one is revoked', () => {
    const ten = Array.from({ length: 10 }, (_, index) => token(`t${index}`));
    directory
      .given(ten)
      .when({ type: 'CreateScimToken', data: token('t10').data })
      .thenThrows('LIMIT_EXCEEDED', { resource: 'scimTokens', limit: 10, count: 10 });
    const revoked: DirectoryEvent = { type: 'ScimTokenRevoked', data: { tokenId: 't3', at } };
    directory
      .given([...ten, revoked])
      .when({ type: 'CreateScimToken', data: token('t10').data })
      .then([token('t10')]);
  });

  it('revokes once, and refuses a token it does not have', () => {
    const revoke = { type: 'RevokeScimToken', data: { tokenId: 't1', at } } as const;
    directory
      .given([token('t1')])
      .when(revoke)
      .then([{ type: 'ScimTokenRevoked', data: { tokenId: 't1', at } }]);
    directory
      .given([token('t1'), { type: 'ScimTokenRevoked', data: { tokenId: 't1', at } }])
      .when(revoke)
      .then([]);
    directory
      .given([token('t2')])
      .when(revoke)
      .thenThrows('NOT_FOUND', { entity: 'scimToken' });
  });

  it('records a use at most once per granularity, and never for a revoked token', () => {
    const use = (when: string) =>
      ({ type: 'RecordScimTokenUse', data: { tokenId: 't1', at: new Date(when), useGranularityMs: 60_000 } }) as const;
    directory
      .given([token('t1')])
      .when(use(at))
      .then([{ type: 'ScimTokenUsed', data: { tokenId: 't1', at } }]);
    directory
      .given([token('t1'), { type: 'ScimTokenUsed', data: { tokenId: 't1', at } }])
      .when(use('2030-01-01T00:00:30.000Z'))
      .then([]);
    directory
      .given([token('t1'), { type: 'ScimTokenUsed', data: { tokenId: 't1', at } }])
      .when(use(later))
      .then([{ type: 'ScimTokenUsed', data: { tokenId: 't1', at: later } }]);
    directory
      .given([token('t1'), { type: 'ScimTokenRevoked', data: { tokenId: 't1', at } }])
      .when(use(later))
      .then([]);
  });
});

describe('directory users', () => {
  it('provisions a person once, and refuses a userName (any case) or externalId another user holds', () => {
    directory
      .given([])
      .when({ type: 'ProvisionScimUser', data: provisioned('u1', 'ada@acme.example', 'okta-1').data })
      .then([provisioned('u1', 'ada@acme.example', 'okta-1')]);
    // One person, one resource: the same member under another resource id is the same person again.
    directory
      .given([provisioned('u1', 'ada@acme.example')])
      .when({
        type: 'ProvisionScimUser',
        data: { ...provisioned('u1', 'ada.l@acme.example').data, resourceId: 'r-other' },
      })
      .thenThrows('DUPLICATE', { field: 'userName' });
    directory
      .given([provisioned('u1', 'ada@acme.example')])
      .when({ type: 'ProvisionScimUser', data: provisioned('u2', 'ADA@acme.example').data })
      .thenThrows('DUPLICATE', { field: 'userName' });
    directory
      .given([provisioned('u1', 'ada@acme.example', 'okta-1')])
      .when({ type: 'ProvisionScimUser', data: provisioned('u2', 'bob@acme.example', 'okta-1').data })
      .thenThrows('DUPLICATE', { field: 'externalId' });
    // The provider's ids are case-sensitive (RFC 7643 3.1).
    directory
      .given([provisioned('u1', 'ada@acme.example', 'okta-1')])
      .when({ type: 'ProvisionScimUser', data: provisioned('u2', 'bob@acme.example', 'OKTA-1').data })
      .then([provisioned('u2', 'bob@acme.example', 'OKTA-1')]);
  });

  it('records the whole resource after a change (another address too: another member), nothing when nothing changed', () => {
    const update = (data: Partial<ScimUserProvisioned['data']>) =>
      ({
        type: 'UpdateScimUser',
        data: { ...provisioned('u1', 'ada@acme.example').data, at: later, ...data },
      }) as const;
    directory
      .given([provisioned('u1', 'ada@acme.example')])
      .when(update({}))
      .then([]);
    directory
      .given([provisioned('u1', 'ada@acme.example')])
      .when(update({ active: false, givenName: 'Ada' }))
      .then([
        {
          type: 'ScimUserUpdated',
          data: {
            resourceId: 'r-u1',
            userId: 'u1',
            userName: 'ada@acme.example',
            active: false,
            givenName: 'Ada',
            at: later,
          },
        },
      ]);
    directory
      .given([provisioned('u1', 'ada@acme.example')])
      .when(update({ userName: 'ada.l@acme.example', userId: 'u9' }))
      .then([
        {
          type: 'ScimUserUpdated',
          data: { resourceId: 'r-u1', userId: 'u9', userName: 'ada.l@acme.example', active: true, at: later },
        },
      ]);
    directory
      .given([provisioned('u1', 'ada@acme.example'), provisioned('u2', 'bob@acme.example')])
      .when(update({ userName: 'Bob@acme.example' }))
      .thenThrows('DUPLICATE', { field: 'userName' });
    directory.given([]).when(update({})).thenThrows('NOT_FOUND', { entity: 'scimUser' });
    directory
      .given([provisioned('u1', 'ada@acme.example'), provisioned('u2', 'bob@acme.example', 'okta-2')])
      .when(update({ externalId: 'okta-2' }))
      .thenThrows('DUPLICATE', { field: 'externalId' });
  });

  it('deletes a user for good: the address may be provisioned again, as the same person or another', () => {
    const deleted: DirectoryEvent = { type: 'ScimUserDeleted', data: { resourceId: 'r-u1', userId: 'u1', at: later } };
    directory
      .given([provisioned('u1', 'ada@acme.example')])
      .when({ type: 'DeleteScimUser', data: { resourceId: 'r-u1', at: later } })
      .then([deleted]);
    directory
      .given([provisioned('u1', 'ada@acme.example'), deleted])
      .when({ type: 'DeleteScimUser', data: { resourceId: 'r-u1', at: later } })
      .thenThrows('NOT_FOUND');
    directory
      .given([provisioned('u1', 'ada@acme.example'), deleted])
      .when({ type: 'ProvisionScimUser', data: provisioned('u1', 'ada@acme.example').data })
      .then([provisioned('u1', 'ada@acme.example')]);
  });

  it('finds its users as the directory is after each change, never as it was', () => {
    const renamed: DirectoryEvent = {
      type: 'ScimUserUpdated',
      data: {
        resourceId: 'r-u1',
        userId: 'u9',
        userName: 'ada.l@acme.example',
        externalId: 'okta-9',
        active: true,
        at: later,
      },
    };
    const before = [provisioned('u1', 'ada@acme.example', 'okta-1')];
    // Looked up once before the change, so that a lookup kept from it would answer afterwards.
    directory
      .given(before)
      .when({ type: 'ProvisionScimUser', data: provisioned('u2', 'Ada@acme.example').data })
      .thenThrows('DUPLICATE', { field: 'userName' });
    directory
      .given([...before, renamed])
      .when({ type: 'ProvisionScimUser', data: provisioned('u2', 'ada@acme.example', 'okta-1').data })
      .then([provisioned('u2', 'ada@acme.example', 'okta-1')]);
    directory
      .given([...before, renamed])
      .when({ type: 'ProvisionScimUser', data: provisioned('u3', 'ADA.L@acme.example').data })
      .thenThrows('DUPLICATE', { field: 'userName' });
    directory
      .given([...before, renamed])
      .when({ type: 'ProvisionScimUser', data: provisioned('u3', 'carol@acme.example', 'okta-9').data })
      .thenThrows('DUPLICATE', { field: 'externalId' });
    directory
      .given([...before, renamed])
      .when({ type: 'DeleteScimUser', data: { resourceId: 'r-u1', at: later } })
      .then([{ type: 'ScimUserDeleted', data: { resourceId: 'r-u1', userId: 'u9', at: later } }]);
  });

  it('counts versions and keeps the creation time across changes', () => {
    const state = [
      provisioned('u1', 'ada@acme.example'),
      {
        type: 'ScimUserUpdated',
        data: { resourceId: 'r-u1', userId: 'u1', userName: 'ada@acme.example', active: false, at: later },
      } as DirectoryEvent,
    ].reduce(evolveDirectory, emptyDirectory);
    expect(state.users.toArray()).toEqual([
      {
        resourceId: 'r-u1',
        userId: 'u1',
        userName: 'ada@acme.example',
        active: false,
        createdAt: at,
        lastModified: later,
        version: 2,
      },
    ]);
  });
});

const group = (groupId: string, displayName: string, members: string[]): ScimGroupCreated => ({
  type: 'ScimGroupCreated',
  data: { groupId, displayName, members, at },
});

describe('directory groups', () => {
  it('creates a group of known users, once per name in any case', () => {
    const users = [provisioned('u1', 'ada@acme.example'), provisioned('u2', 'bob@acme.example')];
    directory
      .given(users)
      .when({ type: 'CreateScimGroup', data: group('g1', 'Admins', ['r-u1']).data })
      .then([group('g1', 'Admins', ['r-u1'])]);
    directory
      .given([...users, group('g1', 'Admins', [])])
      .when({ type: 'CreateScimGroup', data: group('g2', 'admins', []).data })
      .thenThrows('DUPLICATE', { field: 'displayName' });
    directory
      .given(users)
      .when({ type: 'CreateScimGroup', data: group('g1', 'Admins', ['r-nobody']).data })
      .thenThrows('VALIDATION_FAILED', { field: 'members', reason: 'unknown' });
  });

  it('records a change only when the group changes, and forgets a deleted user in every group', () => {
    const given = [provisioned('u1', 'ada@acme.example'), group('g1', 'Admins', ['r-u1'])];
    directory
      .given(given)
      .when({ type: 'UpdateScimGroup', data: group('g1', 'Admins', ['r-u1']).data })
      .then([]);
    directory
      .given(given)
      .when({ type: 'UpdateScimGroup', data: group('g1', 'Admins', []).data })
      .then([{ type: 'ScimGroupUpdated', data: group('g1', 'Admins', []).data }]);
    directory
      .given(given)
      .when({ type: 'DeleteScimGroup', data: { groupId: 'g9', at } })
      .thenThrows('NOT_FOUND', { entity: 'scimGroup' });
    const state = [
      ...given,
      { type: 'ScimUserDeleted', data: { resourceId: 'r-u1', userId: 'u1', at } } as DirectoryEvent,
    ].reduce(evolveDirectory, emptyDirectory);
    expect(state.groups[0]?.members).toEqual([]);
  });

  it('maps groups to roles: the strongest of a person’s mapped groups, matched by name in any case', () => {
    const events: DirectoryEvent[] = [
      provisioned('u1', 'ada@acme.example'),
      provisioned('u2', 'bob@acme.example'),
      provisioned('u3', 'cy@acme.example'),
      group('g1', 'Engineering', ['r-u1', 'r-u2']),
      group('g2', 'Chorus Admins', ['r-u1']),
      { type: 'GroupRolesMapped', data: { roles: { engineering: 'auditor', 'chorus admins': 'admin' }, at } },
    ];
    const state = events.reduce(evolveDirectory, emptyDirectory);
    expect([roleFromGroups(state, 'r-u1'), roleFromGroups(state, 'r-u2'), roleFromGroups(state, 'r-u3')]).toEqual([
      'admin',
      'auditor',
      undefined,
    ]);
    directory
      .given(events)
      .when({ type: 'MapGroupRoles', data: { roles: { engineering: 'auditor', 'chorus admins': 'admin' }, at: later } })
      .then([]);
    directory
      .given(events)
      .when({ type: 'MapGroupRoles', data: { roles: { engineering: 'root' as never }, at: later } })
      .thenThrows('VALIDATION_FAILED', { field: 'roles', reason: 'not_allowed' });
  });
});

describe('an erasure', () => {
  it('takes the person’s resource out of the directory and its groups, and records nothing for someone else', () => {
    const given = [provisioned('u1', 'ada@acme.example'), group('g1', 'Admins', ['r-u1'])];
    directory
      .given(given)
      .when({ type: 'EraseScimPerson', data: { userId: 'u1' } })
      .then([{ type: 'ScimUserErased', data: { resourceId: 'r-u1', userId: 'u1' } }]);
    directory
      .given(given)
      .when({ type: 'EraseScimPerson', data: { userId: 'u2' } })
      .then([]);
    const state = [
      ...given,
      { type: 'ScimUserErased', data: { resourceId: 'r-u1', userId: 'u1' } } as DirectoryEvent,
    ].reduce(evolveDirectory, emptyDirectory);
    expect([state.users.toArray(), state.groups[0]?.members]).toEqual([[], []]);
  });
});

describe('role changes from groups', () => {
  const member = (userId: string, role: 'owner' | 'admin' | 'auditor' | 'member') => ({
    userId,
    email: `${userId}@acme.example`,
    role,
    chorusUser: false,
  });
  const mapped = (roles: Record<string, 'owner' | 'admin' | 'auditor' | 'member'>, groups: ScimGroupCreated[]) =>
    [
      provisioned('u1', 'u1@acme.example'),
      provisioned('u2', 'u2@acme.example'),
      ...groups,
      { type: 'GroupRolesMapped', data: { roles, at } } as DirectoryEvent,
    ].reduce(evolveDirectory, emptyDirectory);

  it('promotes to owner first and demotes owners last, only the concerned, and nothing before a group is mapped', () => {
    const directory = mapped({ Owners: 'owner' }, [group('g1', 'Owners', ['r-u2'])]);
    expect(
      roleChangesFromGroups(
        directory,
        Members.of([member('u1', 'owner'), member('u2', 'member')]),
        new Set(['r-u1', 'r-u2']),
      ),
    ).toEqual([
      { userId: 'u2', role: 'owner' },
      { userId: 'u1', role: 'member' },
    ]);
    expect(
      roleChangesFromGroups(directory, Members.of([member('u1', 'owner'), member('u2', 'member')]), new Set(['r-u2'])),
    ).toEqual([{ userId: 'u2', role: 'owner' }]);
    const unmapped = [provisioned('u1', 'u1@acme.example'), group('g1', 'Owners', [])].reduce(
      evolveDirectory,
      emptyDirectory,
    );
    expect(roleChangesFromGroups(unmapped, Members.of([member('u1', 'owner')]), new Set(['r-u1']))).toEqual([]);
  });

  it('refuses changes that remove the last owner', () => {
    const directory = mapped({ Admins: 'admin' }, [group('g1', 'Admins', ['r-u1'])]);
    expect(() =>
      roleChangesFromGroups(directory, Members.of([member('u1', 'owner'), member('u2', 'member')]), new Set(['r-u1'])),
    ).toThrow('without an owner');
  });

  it('maps groups where there is no owner yet (an operator’s organization): to admin, and to owner with no member', () => {
    const admins = mapped({ Admins: 'admin' }, [group('g1', 'Admins', ['r-u1'])]);
    expect(
      roleChangesFromGroups(
        admins,
        Members.of([member('u1', 'member'), member('u2', 'member')]),
        new Set(['r-u1', 'r-u2']),
      ),
    ).toEqual([{ userId: 'u1', role: 'admin' }]);
    const owners = mapped({ Owners: 'owner' }, [group('g1', 'Owners', [])]);
    expect(roleChangesFromGroups(owners, Members.of([member('u1', 'member')]), new Set(['r-u1', 'r-u2']))).toEqual([]);
    expect(roleChangesFromGroups(owners, Members.of([]), new Set())).toEqual([]);
  });
});

describe('who the directory keeps out', () => {
  const ada = { userId: 'u1', email: 'ada@acme.example' };
  const fold = (events: DirectoryEvent[]) => events.reduce(evolveDirectory, emptyDirectory);
  const updated = (userId: string, userName: string, active: boolean): DirectoryEvent => ({
    type: 'ScimUserUpdated',
    data: { ...provisioned(userId, userName).data, resourceId: 'r-u1', active, at: later },
  });

  it('keeps out a person it deactivated, by account or by address, until reactivated', () => {
    expect(directoryKeepsOut(fold([provisioned('u1', 'ada@acme.example')]), ada)).toBe(false);
    const deactivated = [provisioned('u1', 'ada@acme.example'), updated('u1', 'ada@acme.example', false)];
    expect(directoryKeepsOut(fold(deactivated), ada)).toBe(true);
    expect(directoryKeepsOut(fold(deactivated), { userId: undefined, email: 'ADA@acme.example' })).toBe(true);
    expect(directoryKeepsOut(fold([...deactivated, updated('u1', 'ada@acme.example', true)]), ada)).toBe(false);
  });

  it('keeps out a person it deleted until provisioned again, and forgets an erased one', () => {
    const deleted: DirectoryEvent[] = [
      provisioned('u1', 'ada@acme.example'),
      { type: 'ScimUserDeleted', data: { resourceId: 'r-u1', userId: 'u1', at } },
    ];
    expect(directoryKeepsOut(fold(deleted), ada)).toBe(true);
    expect(directoryKeepsOut(fold([...deleted, provisioned('u1', 'ada@acme.example')]), ada)).toBe(false);
    expect(
      directoryKeepsOut(
        fold([
          provisioned('u1', 'ada@acme.example'),
          { type: 'ScimUserErased', data: { resourceId: 'r-u1', userId: 'u1' } },
        ]),
        ada,
      ),
    ).toBe(false);
  });

  it('keeps out the person a userName change moved the resource off', () => {
    const moved = fold([provisioned('u1', 'ada@acme.example'), updated('u2', 'augusta@acme.example', true)]);
    expect(directoryKeepsOut(moved, ada)).toBe(true);
    expect(directoryKeepsOut(moved, { userId: 'u2', email: 'augusta@acme.example' })).toBe(false);
  });

  it('never keeps out a person it never named', () => {
    expect(
      directoryKeepsOut(fold([provisioned('u1', 'ada@acme.example')]), { userId: 'u9', email: 'finn@acme.example' }),
    ).toBe(false);
  });
});
