// Who caused an event, in words (docs/console.md, History: "a user's e-mail, an API key's name, Billing,
// Command line"), from the `actor` the metadata records (docs/service.md, Event metadata).

/**
 * Where the words come from: the organization's own record for its members; an API key's or a directory token's name
 * (actor-name-lookup.ts).
 */
export type ActorNames = {
  memberEmail(userId: string): string | undefined;
  /** By the whole actor (`api-key:<id>`, `scim:<token id>`). */
  nameOf(actor: string): string | undefined;
};

const FIXED: Readonly<Record<string, string>> = {
  billing: 'Billing',
  stripe: 'Stripe',
  cli: 'Command line',
  // The demo seed, on a first start.
  system: 'System',
};

/** `user:<id>` -> `['user', id]`; an actor without a kind -> `[actor, '']`. */
export function actorParts(actor: string): [kind: string, id: string] {
  const colon = actor.indexOf(':');
  return colon === -1 ? [actor, ''] : [actor.slice(0, colon), actor.slice(colon + 1)];
}

export function actorInWords(actor: string, names: ActorNames): string {
  const fixed = FIXED[actor];
  if (fixed !== undefined) return fixed;
  const [kind, id] = actorParts(actor);
  if (kind === 'user' && id !== '') return names.memberEmail(id) ?? `User ${id}`;
  // A member added just in time by the organization's single sign-on.
  if (kind === 'sso') return 'Single sign-on';
  // The organization's identity provider, through one of its directory tokens (the actor keeps the token's id).
  if (kind === 'scim') {
    const name = names.nameOf(actor);
    return name === undefined ? 'Directory (SCIM)' : `Directory (SCIM), token “${name}”`;
  }
  // A person who joined on signing in with an address of an automatic domain (docs/directory.md).
  if (kind === 'join') return 'Joined by verified domain';
  if (kind === 'api-key' && id !== '') {
    const name = names.nameOf(actor);
    return name === undefined ? `API key ${id}` : `API key “${name}”`;
  }
  return actor;
}
