// An organization's directory (docs/directory.md): the SCIM tokens its identity provider holds, and the people that
// provider has provisioned, with what SCIM says of them beyond membership (their external id, name, whether they
// are active). Membership itself is the organization's own (MemberAdded, MemberRemoved): the directory's
// service decides that first and records the person here after it, so a crash between the two is mended by the
// provider's retry (docs/directory.md, "Order of writes").
import type { Decider } from '../decider.js';
import { DomainError } from '../errors.js';

export const MAX_SCIM_TOKENS = 10;

export const directoryStreamPrefix = 'directory-';
export const directoryStream = (organizationId: string): string => `${directoryStreamPrefix}${organizationId}`;

/** Only the secret's hash is stored (the token is 256 random bits: a plain SHA-256 is enough). */
export type ScimTokenCreated = { type: 'ScimTokenCreated'; data: { tokenId: string; name: string; secretHash: string; at: string } };
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

export type DirectoryEvent = ScimTokenCreated | ScimTokenRevoked | ScimTokenUsed | ScimUserProvisioned | ScimUserUpdated | ScimUserDeleted;

export type ScimToken = { tokenId: string; name: string; secretHash: string; createdAt: string; revokedAt: string | null; lastUsedAt: string | null };

export type DirectoryUser = DirectoryPerson & { createdAt: string; lastModified: string; version: number };

export type Directory = { readonly tokens: readonly ScimToken[]; readonly users: readonly DirectoryUser[] };

export const emptyDirectory: Directory = { tokens: [], users: [] };

const changeToken = (state: Directory, tokenId: string, change: (token: ScimToken) => ScimToken): Directory => ({
  ...state,
  tokens: state.tokens.map((token) => (token.tokenId === tokenId ? change(token) : token)),
});

const personOf = ({ resourceId, userId, userName, email, externalId, givenName, familyName, displayName, active }: DirectoryPerson): DirectoryPerson => ({
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
  switch (event.type) {
    case 'ScimTokenCreated': {
      const { tokenId, name, secretHash, at } = event.data;
      return { ...state, tokens: [...state.tokens, { tokenId, name, secretHash, createdAt: at, revokedAt: null, lastUsedAt: null }] };
    }
    case 'ScimTokenRevoked':
      return changeToken(state, event.data.tokenId, (token) => ({ ...token, revokedAt: token.revokedAt ?? event.data.at }));
    case 'ScimTokenUsed':
      return changeToken(state, event.data.tokenId, (token) => ({ ...token, lastUsedAt: event.data.at }));
    case 'ScimUserProvisioned': {
      const user: DirectoryUser = { ...personOf(event.data), createdAt: event.data.at, lastModified: event.data.at, version: 1 };
      return { ...state, users: [...state.users.filter((candidate) => candidate.resourceId !== user.resourceId), user] };
    }
    case 'ScimUserUpdated':
      return {
        ...state,
        users: state.users.map((user) =>
          user.resourceId === event.data.resourceId
            ? { ...personOf(event.data), createdAt: user.createdAt, lastModified: event.data.at, version: user.version + 1 }
            : user,
        ),
      };
    case 'ScimUserDeleted':
      return { ...state, users: state.users.filter((user) => user.resourceId !== event.data.resourceId) };
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
  | { type: 'DeleteScimUser'; data: { resourceId: string; at: string } };

export const scimUserNotFound = (resourceId: string): DomainError => new DomainError('NOT_FOUND', `The directory has no user ${resourceId}.`, { entity: 'scimUser' });

export const scimTokenNotFound = (tokenId: string): DomainError =>
  new DomainError('NOT_FOUND', `This organization has no directory token ${tokenId}.`, { entity: 'scimToken' });

const sameText = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

/** The userName is an address (case-insensitive), the externalId the provider's own id (case-sensitive, RFC 7643 3.1). */
function refuseTaken(state: Directory, person: DirectoryPerson): void {
  const others = state.users.filter((user) => user.resourceId !== person.resourceId);
  if (others.some((user) => sameText(user.userName, person.userName) || user.userId === person.userId)) {
    throw new DomainError('DUPLICATE', 'Another user of this directory has this userName.', { field: 'userName' });
  }
  if (person.externalId !== undefined && others.some((user) => user.externalId === person.externalId)) {
    throw new DomainError('DUPLICATE', 'Another user of this directory has this externalId.', { field: 'externalId' });
  }
}

const samePerson = (a: DirectoryPerson, b: DirectoryPerson): boolean => JSON.stringify(personOf(a)) === JSON.stringify(personOf(b));

export function decideDirectory(command: DirectoryCommand, state: Directory): DirectoryEvent[] {
  switch (command.type) {
    case 'CreateScimToken': {
      const live = state.tokens.filter((token) => token.revokedAt === null).length;
      if (live >= MAX_SCIM_TOKENS) {
        throw new DomainError('LIMIT_EXCEEDED', `An organization has at most ${MAX_SCIM_TOKENS} directory tokens; revoke one first.`, {
          resource: 'scimTokens',
          limit: MAX_SCIM_TOKENS,
          count: live,
        });
      }
      // 96 random bits: one there already is a bug, not a refusal.
      if (state.tokens.some((token) => token.tokenId === command.data.tokenId)) throw new Error(`Directory token id ${command.data.tokenId} is already in use`);
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
      if (state.users.some((user) => user.resourceId === command.data.resourceId)) throw new Error(`Directory user id ${command.data.resourceId} is already in use`);
      refuseTaken(state, command.data);
      return [{ type: 'ScimUserProvisioned', data: command.data }];
    }
    case 'UpdateScimUser': {
      const user = state.users.find((candidate) => candidate.resourceId === command.data.resourceId);
      if (user === undefined) throw scimUserNotFound(command.data.resourceId);
      refuseTaken(state, command.data);
      return samePerson(user, command.data) ? [] : [{ type: 'ScimUserUpdated', data: command.data }];
    }
    case 'DeleteScimUser': {
      const user = state.users.find((candidate) => candidate.resourceId === command.data.resourceId);
      if (user === undefined) throw scimUserNotFound(command.data.resourceId);
      return [{ type: 'ScimUserDeleted', data: { resourceId: user.resourceId, userId: user.userId, at: command.data.at } }];
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

/** `scim:<token id>`: the actor of every change a directory token makes. */
export const scimActor = (tokenId: string): string => `scim:${tokenId}`;
