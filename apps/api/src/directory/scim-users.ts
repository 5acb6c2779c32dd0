// SCIM 2.0's User resource (RFC 7643 4.1): what Chorus keeps of one, the filters providers look users up by, and
// PatchOp on it (RFC 7644 3.5.2). Pure; the semantics (who becomes a member, what ends) are DirectoryUsers'.
import type { DirectoryUser } from '#domain';
import {
  isObject,
  lowerKeys,
  metaOf,
  patchOperations,
  quotedValue,
  ScimError,
  text,
  USER_SCHEMA,
} from './scim-messages.js';

/** What Chorus keeps of a SCIM User; every other attribute a provider sends is accepted and not stored. */
export type UserInput = {
  userName: string;
  active: boolean;
  email?: string;
  externalId?: string;
  givenName?: string;
  familyName?: string;
  displayName?: string;
};

/** Microsoft Entra ID sends booleans as the strings "True" and "False". */
function bool(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new ScimError(400, `${attribute} must be true or false.`, 'invalidValue');
}

/** The `work` address, else the primary one, else the first. */
function workEmail(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ScimError(400, 'emails must be a list.', 'invalidValue');
  const emails = value.filter(isObject).map(lowerKeys);
  const chosen =
    emails.find((email) => email.type === 'work') ??
    emails.find((email) => email.primary === true || email.primary === 'True') ??
    emails[0];
  return chosen === undefined ? undefined : text(chosen.value, 'emails.value');
}

function withOptional(
  input: UserInput,
  attribute: 'email' | 'externalId' | 'givenName' | 'familyName' | 'displayName',
  value: string | undefined,
): UserInput {
  const { [attribute]: _, ...rest } = input;
  return value === undefined ? rest : { ...rest, [attribute]: value };
}

/** A POST or PUT body. */
export function userInputOf(body: unknown): UserInput {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM User.', 'invalidSyntax');
  const values = lowerKeys(body);
  const userName = text(values.username, 'userName');
  if (userName === undefined) throw new ScimError(400, 'userName is required: the person’s address.', 'invalidValue');
  const name = isObject(values.name) ? lowerKeys(values.name) : {};
  let input: UserInput = { userName, active: values.active === undefined ? true : bool(values.active, 'active') };
  input = withOptional(input, 'email', workEmail(values.emails));
  input = withOptional(input, 'externalId', text(values.externalid, 'externalId'));
  input = withOptional(input, 'givenName', text(name.givenname, 'name.givenName'));
  input = withOptional(input, 'familyName', text(name.familyname, 'name.familyName'));
  return withOptional(input, 'displayName', text(values.displayname, 'displayName'));
}

export const userInputFrom = (user: DirectoryUser): UserInput => {
  const { userName, active, email, externalId, givenName, familyName, displayName } = user;
  const emails = email === undefined ? undefined : [{ type: 'work', value: email }];
  return userInputOf({ userName, active, externalId, displayName, emails, name: { givenName, familyName } });
};

export function scimUserOf(user: DirectoryUser, baseUrl: string): Record<string, unknown> {
  const name = {
    ...(user.givenName === undefined ? {} : { givenName: user.givenName }),
    ...(user.familyName === undefined ? {} : { familyName: user.familyName }),
  };
  return {
    schemas: [USER_SCHEMA],
    id: user.resourceId,
    ...(user.externalId === undefined ? {} : { externalId: user.externalId }),
    userName: user.userName,
    ...(Object.keys(name).length === 0 ? {} : { name }),
    ...(user.displayName === undefined ? {} : { displayName: user.displayName }),
    ...(user.email === undefined ? {} : { emails: [{ value: user.email, type: 'work', primary: true }] }),
    active: user.active,
    meta: metaOf('User', user.resourceId, user, baseUrl),
  };
}

export type UserFilter = { attribute: 'userName' | 'externalId' | 'email'; value: string };

const FILTER =
  /^\s*(userName|externalId|emails\[type eq "work"\]\.value|emails\.value)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

/** The filters identity providers send to find a user before creating one; anything else is `invalidFilter`. */
export function userFilterOf(filter: string): UserFilter {
  const match = FILTER.exec(filter);
  if (match === null) {
    throw new ScimError(
      400,
      'Chorus filters Users by userName eq, externalId eq or emails[type eq "work"].value eq, one at a time.',
      'invalidFilter',
    );
  }
  const value = quotedValue(match[2] ?? '');
  const attribute = match[1]!.toLowerCase();
  return {
    attribute: attribute === 'username' ? 'userName' : attribute === 'externalid' ? 'externalId' : 'email',
    value,
  };
}

export function matchesUserFilter(user: DirectoryUser, filter: UserFilter): boolean {
  switch (filter.attribute) {
    case 'userName':
      return user.userName.toLowerCase() === filter.value.toLowerCase();
    case 'externalId':
      return user.externalId === filter.value;
    case 'email':
      return user.email?.toLowerCase() === filter.value.toLowerCase();
  }
}

const WORK_EMAIL_PATH = /^emails\[type eq "work"\]\.value$/i;

function setAttribute(input: UserInput, path: string, value: unknown, removing: boolean): UserInput {
  const key = path.toLowerCase();
  if (key === 'id' || key === 'meta' || key.startsWith('meta.'))
    throw new ScimError(400, `${path} cannot change.`, 'mutability');
  const optional = (attribute: 'email' | 'externalId' | 'givenName' | 'familyName' | 'displayName', label: string) =>
    withOptional(input, attribute, removing ? undefined : text(value, label));
  switch (key) {
    case 'active':
      if (removing) throw new ScimError(400, 'active cannot be removed.', 'mutability');
      return { ...input, active: bool(value, 'active') };
    case 'username': {
      const userName = removing ? undefined : text(value, 'userName');
      if (userName === undefined) throw new ScimError(400, 'userName cannot be removed.', 'mutability');
      return { ...input, userName };
    }
    case 'externalid':
      return optional('externalId', 'externalId');
    case 'displayname':
      return optional('displayName', 'displayName');
    case 'name.givenname':
      return optional('givenName', 'name.givenName');
    case 'name.familyname':
      return optional('familyName', 'name.familyName');
    case 'name': {
      const name = removing || !isObject(value) ? {} : lowerKeys(value);
      return withOptional(
        withOptional(input, 'givenName', text(name.givenname, 'name.givenName')),
        'familyName',
        text(name.familyname, 'name.familyName'),
      );
    }
    case 'emails':
      return withOptional(input, 'email', removing ? undefined : workEmail(value));
    default:
      if (WORK_EMAIL_PATH.test(path)) return optional('email', 'emails.value');
      // Attributes Chorus does not keep (title, phoneNumbers, the enterprise extension...) are accepted and not stored.
      return input;
  }
}

/**
 * Applies a PatchOp (RFC 7644 3.5.2) to what Chorus keeps: Okta's `replace` with a value object, Entra ID's `Replace`
 * with a path.
 */
export function patchedUser(input: UserInput, body: unknown): UserInput {
  let patched = input;
  for (const { op, path, value } of patchOperations(body)) {
    if (path !== undefined) {
      patched = setAttribute(patched, path, value, op === 'remove');
      continue;
    }
    if (op === 'remove') throw new ScimError(400, 'A remove needs a path.', 'noTarget');
    if (!isObject(value))
      throw new ScimError(400, 'An operation without a path needs an object value.', 'invalidValue');
    // Okta: {"op": "replace", "value": {"active": false}}; a key may itself be a path ("name.givenName").
    for (const [attribute, given] of Object.entries(value)) patched = setAttribute(patched, attribute, given, false);
  }
  return patched;
}
