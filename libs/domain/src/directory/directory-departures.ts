// Who an organization's directory keeps out (docs/directory.md, Joining by verified domain): the people its identity
// provider deactivated, deleted or moved off by another userName, until it provisions them again. Joining by verified
// domain and single sign-on's own provisioning defer to it, or a person the company removed would come back by
// signing in. Shaped by what it reads, so that the directory's module (which folds with it) is not imported back.

import type { Set as PersistentSet } from 'immutable';
import type { DirectoryUserList } from './directory-user-list.js';

type Resource = {
  readonly resourceId: string;
  readonly userId: string;
  readonly userName: string;
  readonly active: boolean;
};
type People = { readonly users: DirectoryUserList<Resource>; readonly departedUserIds: PersistentSet<string> };
/** The directory events that change who departed. */
type PersonChange =
  | { type: 'ScimUserProvisioned' | 'ScimUserUpdated'; data: { resourceId: string; userId: string } }
  | { type: 'ScimUserDeleted'; data: { resourceId: string; userId: string } };

/** The departed user ids after the event. */
export function departedAfter(state: People, event: PersonChange): PersistentSet<string> {
  const departed = state.departedUserIds;
  if (event.type === 'ScimUserProvisioned') return departed.delete(event.data.userId);
  if (event.type === 'ScimUserDeleted') return departed.add(event.data.userId);
  // Another userName is another person: the one the resource named before leaves.
  const before = state.users.get(event.data.resourceId);
  const arrived = departed.delete(event.data.userId);
  return before === undefined || before.userId === event.data.userId ? arrived : arrived.add(before.userId);
}

/** Deactivated (by account or by address) and still in the directory, or departed. An erased person is neither. */
export const directoryKeepsOut = (directory: People, person: { userId: string | undefined; email: string }): boolean =>
  (person.userId !== undefined && directory.users.allOfAccount(person.userId).some((user) => !user.active)) ||
  directory.users.named(person.email)?.active === false ||
  (person.userId !== undefined && directory.departedUserIds.has(person.userId));
