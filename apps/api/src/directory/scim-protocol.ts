// SCIM 2.0's own shapes (RFC 7643 resources, RFC 7644 messages): what identity providers send and read. Pure; the
// semantics (who becomes a member, what ends) are the directory service's (docs/directory.md).
import { HttpException } from '@nestjs/common';
import type { Request } from 'express';
import { DomainError, type DirectoryUser } from '#domain';
import { WrongExpectedRevisionError } from '#event-store';
import type { ErrorAnswer } from '../http/error-answers.js';
import { ProblemError } from '../http/problem-error.js';
import { isJsonParseFailure } from '../http/problem-document.js';

export const SCIM_MEDIA_TYPE = 'application/scim+json';
export const SCIM_PATH = '/scim/v2';
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 3.12's scimType values that Chorus answers. */
export type ScimType =
  | 'uniqueness'
  | 'invalidFilter'
  | 'invalidValue'
  | 'invalidSyntax'
  | 'mutability'
  | 'invalidPath'
  | 'noTarget'
  | 'tooMany';

export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
    this.name = 'ScimError';
  }
}

const errorBody = (status: number, detail: string, scimType?: ScimType): ErrorAnswer => ({
  status,
  contentType: SCIM_MEDIA_TYPE,
  body: { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType === undefined ? {} : { scimType }), detail },
});

function fromDomainError(error: DomainError): ErrorAnswer | undefined {
  switch (error.code) {
    case 'DUPLICATE':
      return errorBody(409, error.message, 'uniqueness');
    case 'LAST_OWNER':
      return errorBody(409, error.message, 'mutability');
    case 'LIMIT_EXCEEDED':
      return errorBody(409, `${error.message} Raise the organization’s users limit, or deprovision someone first.`);
    case 'NOT_FOUND':
      return errorBody(404, error.message);
    case 'VALIDATION_FAILED':
      return errorBody(400, error.message, 'invalidValue');
    case 'FORBIDDEN':
    case 'ENTERPRISE_PLAN_REQUIRED':
      return errorBody(403, error.message);
    default:
      return undefined;
  }
}

/** Errors on /scim/v2 in SCIM's error schema; anything unforeseen stays a logged problem+json 500. */
export function answerScimErrors(exception: unknown, request: Request): ErrorAnswer | undefined {
  if (!request.path.startsWith(`${SCIM_PATH}/`) && request.path !== SCIM_PATH) return undefined;
  if (exception instanceof ScimError) return errorBody(exception.status, exception.detail, exception.scimType);
  if (exception instanceof DomainError) return fromDomainError(exception);
  // Another node changed the directory or the organization meanwhile, past the command's retries: identity providers
  // retry a
  // 503, and the retry finds whatever part was done (a member already there is adopted).
  if (exception instanceof WrongExpectedRevisionError) {
    return {
      ...errorBody(503, 'The directory changed while this request was decided: send it again.'),
      headers: { 'Retry-After': '1' },
    };
  }
  if (isJsonParseFailure(exception)) return errorBody(400, 'The request body is not valid JSON.', 'invalidSyntax');
  if (exception instanceof ProblemError) return errorBody(exception.getStatus(), exception.detail ?? exception.title);
  if (exception instanceof HttpException && exception.getStatus() < 500)
    return errorBody(exception.getStatus(), exception.message);
  return undefined;
}

// --- Users -------------------------------------------------------------------------------------------------------

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

const MAX_TEXT = 256;

export function text(value: unknown, attribute: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > MAX_TEXT)
    throw new ScimError(400, `${attribute} must be a string of at most ${MAX_TEXT} characters.`, 'invalidValue');
  return value === '' ? undefined : value;
}

/** Microsoft Entra ID sends booleans as the strings "True" and "False". */
function bool(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw new ScimError(400, `${attribute} must be true or false.`, 'invalidValue');
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Attribute names are case-insensitive (RFC 7643 2.1). */
export function lowerKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key.toLowerCase(), entry]));
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

/** A resource's `meta` (RFC 7643 3.1): its version is the count of its changes, a weak ETag. */
export const metaOf = (
  resourceType: 'User' | 'Group',
  id: string,
  { createdAt, lastModified, version }: { createdAt: string; lastModified: string; version: number },
  baseUrl: string,
): Record<string, string> => ({
  resourceType,
  created: createdAt,
  lastModified,
  location: `${baseUrl}${SCIM_PATH}/${resourceType}s/${id}`,
  version: `W/"${version}"`,
});

/** The value of a filter's or a path's `"..."`, JSON's escapes read; `invalidFilter` when they are not valid. */
export function quotedValue(raw: string): string {
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    throw new ScimError(400, 'The filter’s value is not a valid string.', 'invalidFilter');
  }
}

// --- Filters -----------------------------------------------------------------------------------------------------

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

/** RFC 7644 3.4.2.4: 1-based; a count of 0 answers only the total. */
export function pageOf(startIndex: unknown, count: unknown, maxCount: number): { start: number; count: number } {
  const number = (value: unknown, fallback: number): number => {
    if (value === undefined) return fallback;
    const parsed = typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isNaN(parsed)) throw new ScimError(400, 'startIndex and count must be integers.', 'invalidValue');
    return parsed;
  };
  return { start: Math.max(1, number(startIndex, 1)), count: Math.min(maxCount, Math.max(0, number(count, maxCount))) };
}

// --- PATCH -------------------------------------------------------------------------------------------------------

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

export type PatchOperation = { op: 'add' | 'replace' | 'remove'; path: string | undefined; value: unknown };

/** A PatchOp's operations, their `op` in lower case (Entra ID writes `Replace`); anything else is `invalidSyntax`. */
export function patchOperations(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a PatchOp.', 'invalidSyntax');
  const operations = lowerKeys(body).operations;
  if (!Array.isArray(operations) || operations.length === 0)
    throw new ScimError(400, 'A PatchOp needs Operations.', 'invalidSyntax');
  return operations.map((raw) => {
    if (!isObject(raw)) throw new ScimError(400, 'Each operation must be an object.', 'invalidSyntax');
    const operation = lowerKeys(raw);
    const op = typeof operation.op === 'string' ? operation.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove')
      throw new ScimError(400, 'op must be add, replace or remove.', 'invalidSyntax');
    return { op, path: typeof operation.path === 'string' ? operation.path : undefined, value: operation.value };
  });
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
