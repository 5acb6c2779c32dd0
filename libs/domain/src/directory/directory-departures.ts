// Who an organization's directory keeps out (docs/directory.md, Joining by verified domain): the people its identity
// provider deactivated, deleted or moved off by another userName, until it provisions them again. Joining by verified
// domain and single sign-on's own provisioning defer to it, or a person the company removed would come back by
// signing in. Shaped by what it reads, so that the directory's module (which folds with it) is not imported back.

type Resource = {
  readonly resourceId: string;
  readonly userId: string;
  readonly userName: string;
  readonly active: boolean;
};
type People = { readonly users: readonly Resource[]; readonly departedUserIds: readonly string[] };
/** The directory events that change who departed. */
type PersonChange =
  | { type: 'ScimUserProvisioned' | 'ScimUserUpdated'; data: { resourceId: string; userId: string } }
  | { type: 'ScimUserDeleted'; data: { resourceId: string; userId: string } };

const without = (ids: readonly string[], userId: string): readonly string[] =>
  ids.includes(userId) ? ids.filter((id) => id !== userId) : ids;

/** The departed user ids after the event. */
export function departedAfter(state: People, event: PersonChange): readonly string[] {
  const departed = state.departedUserIds;
  if (event.type === 'ScimUserProvisioned') return without(departed, event.data.userId);
  if (event.type === 'ScimUserDeleted')
    return departed.includes(event.data.userId) ? departed : [...departed, event.data.userId];
  // Another userName is another person: the one the resource named before leaves.
  const before = state.users.find((user) => user.resourceId === event.data.resourceId);
  const arrived = without(departed, event.data.userId);
  return before === undefined || before.userId === event.data.userId
    ? arrived
    : [...without(arrived, before.userId), before.userId];
}

/** Deactivated (by account or by address) and still in the directory, or departed. An erased person is neither. */
export const directoryKeepsOut = (directory: People, person: { userId: string | undefined; email: string }): boolean =>
  directory.users.some(
    (user) =>
      !user.active && (user.userId === person.userId || user.userName.toLowerCase() === person.email.toLowerCase()),
  ) ||
  (person.userId !== undefined && directory.departedUserIds.includes(person.userId));
