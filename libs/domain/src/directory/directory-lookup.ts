// A directory's people found by resource id, userName, account or externalId, each without a pass over every user
// (see lookup.ts). The first of each: the decider keeps every one of these unique in a directory (refuseTaken).
import { lookupBy } from '../lookup.js';

/** Shaped by what it reads, so that the directory's module (which decides with it) is not imported back. */
type Person = {
  readonly resourceId: string;
  readonly userId: string;
  readonly userName: string;
  readonly externalId?: string;
};
type People<U extends Person> = { readonly users: readonly U[] };

const byResourceId = lookupBy((user: Person) => user.resourceId);
const byUserName = lookupBy((user: Person) => user.userName.toLowerCase());
const byUserId = lookupBy((user: Person) => user.userId);
const byExternalId = lookupBy((user: Person) => user.externalId);

export const directoryUserById = <U extends Person>(directory: People<U>, resourceId: string): U | undefined =>
  byResourceId(directory.users, resourceId);

/** In any case: a userName is an address. */
export const directoryUserNamed = <U extends Person>(directory: People<U>, userName: string): U | undefined =>
  byUserName(directory.users, userName.toLowerCase());

export const directoryUserOfAccount = <U extends Person>(directory: People<U>, userId: string): U | undefined =>
  byUserId(directory.users, userId);

/** As given: the provider's own id is case-sensitive (RFC 7643 3.1). */
export const directoryUserWithExternalId = <U extends Person>(
  directory: People<U>,
  externalId: string,
): U | undefined => byExternalId(directory.users, externalId);
