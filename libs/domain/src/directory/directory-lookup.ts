// A directory's people found by resource id, userName, account or externalId: each a lookup in the directory's indexed
// list (directory-user-list.ts), never a pass over every user. The decider keeps every one of these unique in a
// directory (refuseTaken).
import type { DirectoryUserList } from './directory-user-list.js';

/** Shaped by what it reads, so that the directory's module (which decides with it) is not imported back. */
type Person = {
  readonly resourceId: string;
  readonly userId: string;
  readonly userName: string;
  readonly externalId?: string;
};
type People<U extends Person> = { readonly users: DirectoryUserList<U> };

export const directoryUserById = <U extends Person>(directory: People<U>, resourceId: string): U | undefined =>
  directory.users.get(resourceId);

/** In any case: a userName is an address. */
export const directoryUserNamed = <U extends Person>(directory: People<U>, userName: string): U | undefined =>
  directory.users.named(userName);

export const directoryUserOfAccount = <U extends Person>(directory: People<U>, userId: string): U | undefined =>
  directory.users.ofAccount(userId);

/** As given: the provider's own id is case-sensitive (RFC 7643 3.1). */
export const directoryUserWithExternalId = <U extends Person>(
  directory: People<U>,
  externalId: string,
): U | undefined => directory.users.withExternalId(externalId);
