// SCIM 2.0's messages as Chorus reads and writes them (RFC 7644): media type, paths and schemas, its errors, and the
// forms users and groups share (text values, case-insensitive attribute names, PatchOp, paging, meta). Pure.

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

const MAX_TEXT = 256;

export function text(value: unknown, attribute: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > MAX_TEXT)
    throw new ScimError(400, `${attribute} must be a string of at most ${MAX_TEXT} characters.`, 'invalidValue');
  return value === '' ? undefined : value;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Attribute names are case-insensitive (RFC 7643 2.1). */
export function lowerKeys(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key.toLowerCase(), entry]));
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
