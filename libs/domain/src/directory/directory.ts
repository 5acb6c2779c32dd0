// An organization's directory (docs/directory.md): the SCIM tokens its identity provider holds, and the people that
// provider has provisioned, with what SCIM says of them beyond membership (their external id, name, whether they
// are active). Membership itself is the organization's own (MemberAdded, MemberRemoved): the directory's
// service decides that first and records the person here after it, so a crash between the two is mended by the
// provider's retry (docs/directory.md, "Order of writes").
import { Set as PersistentSet } from 'immutable';
import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';
import { MEMBER_ROLES, type MemberRole } from '../organization/member-roles.js';
import { departedAfter } from './directory-departures.js';
import { DirectoryUserList } from './directory-user-list.js';
import {
  directoryUserById,
  directoryUserNamed,
  directoryUserOfAccount,
  directoryUserWithExternalId,
} from './directory-lookup.js';
import { scimGroupNotFound, scimTokenNotFound, scimUserNotFound } from './directory-not-found.js';

export const MAX_SCIM_TOKENS = 10;
export const directoryStreamPrefix = 'directory-';
export const directoryStream = (organizationId: string): string => `${directoryStreamPrefix}${organizationId}`;

/** Only the secret's hash is stored (the token is 256 random bits: a plain SHA-256 is enough). */
export type ScimTokenCreated = {
  type: 'ScimTokenCreated';
  data: { tokenId: string; name: string; secretHash: string; at: string };
};
export type ScimTokenRevoked = { type: 'ScimTokenRevoked'; data: { tokenId: string; at: string } };
/** At most once per `useGranularityMs`, for the console's "last used". */
export type ScimTokenUsed = { type: 'ScimTokenUsed'; data: { tokenId: string; at: string } };

/** What SCIM says of a person beyond membership. Flat, so that sealing finds each personal field (PERSONAL_DATA). */
export type DirectoryPerson = {
  /** The SCIM resource's id: stays when the address, and with it the member, changes. */
  resourceId: string;
  /** The member this resource is: the account (or reserved id) of `userName`. */
  userId: string;
  /** The person's address: the member's own. */
  userName: string;
  /** The `work` address the provider sends, kept as given (the member's address is `userName`). */
  email?: string;
  externalId?: string;
  givenName?: string;
  familyName?: string;
  displayName?: string;
  active: boolean;
};

export type ScimUserProvisioned = { type: 'ScimUserProvisioned'; data: DirectoryPerson & { at: string } };
/** The whole resource after the change (a PUT or PATCH), not a difference. */
export type ScimUserUpdated = { type: 'ScimUserUpdated'; data: DirectoryPerson & { at: string } };
export type ScimUserDeleted = { type: 'ScimUserDeleted'; data: { resourceId: string; userId: string; at: string } };
/** The person was erased: their resource leaves the directory, on every node, before their key is deleted. */
export type ScimUserErased = { type: 'ScimUserErased'; data: { resourceId: string; userId: string } };

/** A group of the provider's directory; `members` are user resource ids. Its name is the company's, not a person's. */
export type DirectoryGroupData = {
  groupId: string;
  displayName: string;
  externalId?: string;
  members: string[];
  at: string;
};
export type ScimGroupCreated = { type: 'ScimGroupCreated'; data: DirectoryGroupData };
/** The whole group after the change. */
export type ScimGroupUpdated = { type: 'ScimGroupUpdated'; data: DirectoryGroupData };
export type ScimGroupDeleted = { type: 'ScimGroupDeleted'; data: { groupId: string; at: string } };
/** The whole mapping, by group displayName (matched in any case). */
export type GroupRolesMapped = { type: 'GroupRolesMapped'; data: { roles: Record<string, MemberRole>; at: string } };

export type DirectoryEvent =
  | ScimTokenCreated
  | ScimTokenRevoked
  | ScimTokenUsed
  | ScimUserProvisioned
  | ScimUserUpdated
  | ScimUserDeleted
  | ScimUserErased
  | ScimGroupCreated
  | ScimGroupUpdated
  | ScimGroupDeleted
  | GroupRolesMapped;

export type ScimToken = {
  tokenId: string;
  name: string;
  secretHash: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
};

export type DirectoryUser = DirectoryPerson & { createdAt: string; lastModified: string; version: number };

export type DirectoryGroup = {
  groupId: string;
  displayName: string;
  externalId?: string;
  members: readonly string[];
  createdAt: string;
  lastModified: string;
  version: number;
};

export type Directory = {
  readonly tokens: readonly ScimToken[];
  /** Indexed by resource id, userName, account and externalId: finding one never passes over the others. */
  readonly users: DirectoryUserList<DirectoryUser>;
  readonly groups: readonly DirectoryGroup[];
  readonly groupRoles: Readonly<Record<string, MemberRole>>;
  /** The people (user ids) the directory deleted, or moved off by another userName, and has not provisioned since. */
  readonly departedUserIds: PersistentSet<string>;
};

export const emptyDirectory: Directory = {
  tokens: [],
  users: DirectoryUserList.empty(),
  groups: [],
  groupRoles: {},
  departedUserIds: PersistentSet(),
};

const groupOf = ({
  groupId,
  displayName,
  externalId,
  members,
}: Omit<DirectoryGroupData, 'at' | 'members'> & { members: readonly string[] }): Pick<
  DirectoryGroup,
  'groupId' | 'displayName' | 'externalId' | 'members'
> => ({
  groupId,
  displayName,
  members: [...new Set(members)],
  ...(externalId === undefined ? {} : { externalId }),
});

const changeToken = (state: Directory, tokenId: string, change: (token: ScimToken) => ScimToken): Directory => ({
  ...state,
  tokens: state.tokens.map((token) => (token.tokenId === tokenId ? change(token) : token)),
});

const personOf = ({
  resourceId,
  userId,
  userName,
  email,
  externalId,
  givenName,
  familyName,
  displayName,
  active,
}: DirectoryPerson): DirectoryPerson => ({
  resourceId,
  userId,
  userName,
  active,
  ...(email === undefined ? {} : { email }),
  ...(externalId === undefined ? {} : { externalId }),
  ...(givenName === undefined ? {} : { givenName }),
  ...(familyName === undefined ? {} : { familyName }),
  ...(displayName === undefined ? {} : { displayName }),
});

export function evolveDirectory(state: Directory, event: DirectoryEvent): Directory {
  const person =
    event.type === 'ScimUserProvisioned' || event.type === 'ScimUserUpdated' || event.type === 'ScimUserDeleted';
  return {
    ...evolveResources(state, event),
    departedUserIds: person ? departedAfter(state, event) : state.departedUserIds,
  };
}

function evolveResources(state: Directory, event: DirectoryEvent): Directory {
  switch (event.type) {
    case 'ScimTokenCreated': {
      const { tokenId, name, secretHash, at } = event.data;
      return {
        ...state,
        tokens: [...state.tokens, { tokenId, name, secretHash, createdAt: at, revokedAt: null, lastUsedAt: null }],
      };
    }
    case 'ScimTokenRevoked':
      return changeToken(state, event.data.tokenId, (token) => ({
        ...token,
        revokedAt: token.revokedAt ?? event.data.at,
      }));
    case 'ScimTokenUsed':
      return changeToken(state, event.data.tokenId, (token) => ({ ...token, lastUsedAt: event.data.at }));
    case 'ScimUserProvisioned': {
      const user: DirectoryUser = {
        ...personOf(event.data),
        createdAt: event.data.at,
        lastModified: event.data.at,
        version: 1,
      };
      // Always a new resource: the decider refuses an id in use.
      return { ...state, users: state.users.with(user) };
    }
    case 'ScimUserUpdated': {
      const user = state.users.get(event.data.resourceId);
      if (user === undefined) return state;
      const updated: DirectoryUser = {
        ...personOf(event.data),
        createdAt: user.createdAt,
        lastModified: event.data.at,
        version: user.version + 1,
      };
      return { ...state, users: state.users.with(updated) };
    }
    case 'ScimUserDeleted':
    case 'ScimUserErased': {
      const { resourceId } = event.data;
      const withoutUser = (group: DirectoryGroup): DirectoryGroup => ({
        ...group,
        members: group.members.filter((member) => member !== resourceId),
      });
      const groups = state.groups.map((group) => (group.members.includes(resourceId) ? withoutUser(group) : group));
      return { ...state, users: state.users.without(resourceId), groups };
    }
    case 'ScimGroupCreated': {
      const group: DirectoryGroup = {
        ...groupOf(event.data),
        createdAt: event.data.at,
        lastModified: event.data.at,
        version: 1,
      };
      return { ...state, groups: [...state.groups.filter((candidate) => candidate.groupId !== group.groupId), group] };
    }
    case 'ScimGroupUpdated':
      return {
        ...state,
        groups: state.groups.map((group) =>
          group.groupId === event.data.groupId
            ? {
                ...groupOf(event.data),
                createdAt: group.createdAt,
                lastModified: event.data.at,
                version: group.version + 1,
              }
            : group,
        ),
      };
    case 'ScimGroupDeleted':
      return { ...state, groups: state.groups.filter((group) => group.groupId !== event.data.groupId) };
    case 'GroupRolesMapped':
      return { ...state, groupRoles: event.data.roles };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export type DirectoryCommand =
  | { type: 'CreateScimToken'; data: ScimTokenCreated['data'] }
  | { type: 'RevokeScimToken'; data: { tokenId: string; at: string } }
  | { type: 'RecordScimTokenUse'; data: { tokenId: string; at: Date; useGranularityMs: number } }
  | { type: 'ProvisionScimUser'; data: ScimUserProvisioned['data'] }
  | { type: 'UpdateScimUser'; data: ScimUserUpdated['data'] }
  | { type: 'DeleteScimUser'; data: { resourceId: string; at: string } }
  | { type: 'EraseScimPerson'; data: { userId: string } }
  | { type: 'CreateScimGroup'; data: DirectoryGroupData }
  | { type: 'UpdateScimGroup'; data: DirectoryGroupData }
  | { type: 'DeleteScimGroup'; data: { groupId: string; at: string } }
  | { type: 'MapGroupRoles'; data: GroupRolesMapped['data'] };

/**
 * The userName is an address (case-insensitive), the externalId the provider's own id (case-sensitive, RFC 7643 3.1).
 */
function refuseTaken(state: Directory, person: DirectoryPerson): void {
  const other = (user: DirectoryUser | undefined): boolean =>
    user !== undefined && user.resourceId !== person.resourceId;
  if (other(directoryUserNamed(state, person.userName)) || other(directoryUserOfAccount(state, person.userId))) {
    throw new DomainError('DUPLICATE', 'Another user of this directory has this userName.', { field: 'userName' });
  }
  if (person.externalId !== undefined && other(directoryUserWithExternalId(state, person.externalId))) {
    throw new DomainError('DUPLICATE', 'Another user of this directory has this externalId.', { field: 'externalId' });
  }
}

function refuseGroup(state: Directory, group: DirectoryGroupData): void {
  if (
    state.groups.some(
      (other) => other.groupId !== group.groupId && other.displayName.toLowerCase() === group.displayName.toLowerCase(),
    )
  ) {
    throw new DomainError('DUPLICATE', 'Another group of this directory has this displayName.', {
      field: 'displayName',
    });
  }
  const unknown = group.members.filter((member) => directoryUserById(state, member) === undefined);
  if (unknown.length > 0)
    throw new DomainError('VALIDATION_FAILED', `No user of this directory has the id ${unknown[0]}.`, {
      field: 'members',
      reason: 'unknown',
    });
}

const sameGroup = (a: DirectoryGroup, b: DirectoryGroupData): boolean =>
  JSON.stringify(groupOf(a)) === JSON.stringify(groupOf(b));

const samePerson = (a: DirectoryPerson, b: DirectoryPerson): boolean =>
  JSON.stringify(personOf(a)) === JSON.stringify(personOf(b));

export function decideDirectory(command: DirectoryCommand, state: Directory): DirectoryEvent[] {
  switch (command.type) {
    case 'CreateScimToken': {
      const live = state.tokens.filter((token) => token.revokedAt === null).length;
      if (live >= MAX_SCIM_TOKENS) {
        throw new DomainError(
          'LIMIT_EXCEEDED',
          `An organization has at most ${MAX_SCIM_TOKENS} directory tokens; revoke one first.`,
          {
            resource: 'scimTokens',
            limit: MAX_SCIM_TOKENS,
            count: live,
          },
        );
      }
      // 96 random bits: one there already is a bug, not a refusal.
      if (state.tokens.some((token) => token.tokenId === command.data.tokenId))
        throw new Error(`Directory token id ${command.data.tokenId} is already in use`);
      return [{ type: 'ScimTokenCreated', data: command.data }];
    }
    case 'RevokeScimToken': {
      const token = state.tokens.find((candidate) => candidate.tokenId === command.data.tokenId);
      if (token === undefined) throw scimTokenNotFound(command.data.tokenId);
      return token.revokedAt === null ? [{ type: 'ScimTokenRevoked', data: command.data }] : [];
    }
    case 'RecordScimTokenUse': {
      const { tokenId, at, useGranularityMs } = command.data;
      const token = state.tokens.find((candidate) => candidate.tokenId === tokenId);
      if (token === undefined || token.revokedAt !== null) return [];
      const due = token.lastUsedAt === null || at.getTime() - Date.parse(token.lastUsedAt) >= useGranularityMs;
      return due ? [{ type: 'ScimTokenUsed', data: { tokenId, at: at.toISOString() } }] : [];
    }
    case 'ProvisionScimUser': {
      // 96 random bits, as a token's.
      if (directoryUserById(state, command.data.resourceId) !== undefined)
        throw new Error(`Directory user id ${command.data.resourceId} is already in use`);
      refuseTaken(state, command.data);
      return [{ type: 'ScimUserProvisioned', data: command.data }];
    }
    case 'UpdateScimUser': {
      const user = directoryUserById(state, command.data.resourceId);
      if (user === undefined) throw scimUserNotFound(command.data.resourceId);
      refuseTaken(state, command.data);
      return samePerson(user, command.data) ? [] : [{ type: 'ScimUserUpdated', data: command.data }];
    }
    case 'DeleteScimUser': {
      const user = directoryUserById(state, command.data.resourceId);
      if (user === undefined) throw scimUserNotFound(command.data.resourceId);
      return [
        { type: 'ScimUserDeleted', data: { resourceId: user.resourceId, userId: user.userId, at: command.data.at } },
      ];
    }
    case 'EraseScimPerson':
      return state.users.allOfAccount(command.data.userId).map((user): ScimUserErased => ({
        type: 'ScimUserErased',
        data: { resourceId: user.resourceId, userId: user.userId },
      }));
    case 'CreateScimGroup': {
      // 96 random bits, as a token's.
      if (state.groups.some((group) => group.groupId === command.data.groupId))
        throw new Error(`Directory group id ${command.data.groupId} is already in use`);
      refuseGroup(state, command.data);
      return [{ type: 'ScimGroupCreated', data: command.data }];
    }
    case 'UpdateScimGroup': {
      const group = state.groups.find((candidate) => candidate.groupId === command.data.groupId);
      if (group === undefined) throw scimGroupNotFound(command.data.groupId);
      refuseGroup(state, command.data);
      return sameGroup(group, command.data) ? [] : [{ type: 'ScimGroupUpdated', data: command.data }];
    }
    case 'DeleteScimGroup': {
      if (!state.groups.some((group) => group.groupId === command.data.groupId))
        throw scimGroupNotFound(command.data.groupId);
      return [{ type: 'ScimGroupDeleted', data: command.data }];
    }
    case 'MapGroupRoles': {
      const { roles } = command.data;
      for (const [name, role] of Object.entries(roles)) {
        if (name.trim() === '' || !MEMBER_ROLES.includes(role)) {
          throw new DomainError('VALIDATION_FAILED', 'Each group name maps to owner, admin, auditor or member.', {
            field: 'roles',
            reason: 'not_allowed',
          });
        }
      }
      return JSON.stringify(roles) === JSON.stringify(state.groupRoles)
        ? []
        : [{ type: 'GroupRolesMapped', data: command.data }];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const directoryDecider: Decider<Directory, DirectoryCommand, DirectoryEvent> = {
  streamOf: directoryStream,
  initialState: emptyDirectory,
  evolve: evolveDirectory,
  decide: decideDirectory,
};
