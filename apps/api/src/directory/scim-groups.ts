// SCIM 2.0's Group resource and its PatchOp forms (RFC 7643 4.2, RFC 7644 3.5.2). Pure, as scim-messages.ts.
import {
  isObject,
  lowerKeys,
  metaOf,
  patchOperations,
  quotedValue,
  SCIM_PATH,
  ScimError,
  text,
} from './scim-messages.js';

export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

export type GroupInput = { displayName: string; externalId?: string; members: string[] };

function memberIds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((member) => {
    const id = isObject(member) ? lowerKeys(member).value : undefined;
    if (typeof id !== 'string' || id === '')
      throw new ScimError(400, 'Each member is {"value": "<user id>"}.', 'invalidValue');
    return id;
  });
}

/** A POST body. */
export function groupInputOf(body: unknown): GroupInput {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM Group.', 'invalidSyntax');
  const values = lowerKeys(body);
  const displayName = text(values.displayname, 'displayName');
  if (displayName === undefined) throw new ScimError(400, 'displayName is required.', 'invalidValue');
  const externalId = text(values.externalid, 'externalId');
  return { displayName, members: memberIds(values.members), ...(externalId === undefined ? {} : { externalId }) };
}

export function scimGroupOf(
  group: {
    groupId: string;
    displayName: string;
    externalId?: string;
    members: readonly string[];
    createdAt: string;
    lastModified: string;
    version: number;
  },
  baseUrl: string,
  withMembers: boolean,
): Record<string, unknown> {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.groupId,
    displayName: group.displayName,
    ...(group.externalId === undefined ? {} : { externalId: group.externalId }),
    ...(withMembers
      ? {
          members: group.members.map((value) => ({
            value,
            $ref: `${baseUrl}${SCIM_PATH}/Users/${value}`,
            type: 'User',
          })),
        }
      : {}),
    meta: metaOf('Group', group.groupId, group, baseUrl),
  };
}

const GROUP_FILTER = /^\s*(displayName|externalId)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

export type GroupFilter = { attribute: 'displayName' | 'externalId'; value: string };

export function groupFilterOf(filter: string): GroupFilter {
  const match = GROUP_FILTER.exec(filter);
  if (match === null)
    throw new ScimError(400, 'Chorus filters Groups by displayName eq or externalId eq.', 'invalidFilter');
  const value = quotedValue(match[2] ?? '');
  return { attribute: match[1]!.toLowerCase() === 'displayname' ? 'displayName' : 'externalId', value };
}

export const matchesGroupFilter = (
  group: { displayName: string; externalId?: string },
  filter: GroupFilter,
): boolean =>
  filter.attribute === 'displayName'
    ? group.displayName.toLowerCase() === filter.value.toLowerCase()
    : group.externalId === filter.value;

const MEMBER_PATH = /^members\[value eq "((?:[^"\\]|\\.)*)"\]$/i;

/**
 * Okta's (`members[value eq "..."]`, a value object with displayName) and Entra ID's (`Add`/`Remove` with a list)
 * forms.
 */
export function patchedGroup(input: GroupInput, body: unknown): GroupInput {
  let group = { ...input, members: [...input.members] };
  for (const { op, path, value } of patchOperations(body)) {
    const one = path === undefined ? undefined : MEMBER_PATH.exec(path);
    if (one !== undefined && one !== null) {
      if (op !== 'remove') throw new ScimError(400, 'A member path is only removed.', 'invalidPath');
      const id = quotedValue(one[1] ?? '');
      group = { ...group, members: group.members.filter((member) => member !== id) };
    } else if (path?.toLowerCase() === 'members') {
      const ids = memberIds(value);
      if (op === 'add') group = { ...group, members: [...new Set([...group.members, ...ids])] };
      else if (op === 'replace') group = { ...group, members: [...new Set(ids)] };
      else
        group = {
          ...group,
          members: value === undefined ? [] : group.members.filter((member) => !ids.includes(member)),
        };
    } else if (path?.toLowerCase() === 'displayname' || path?.toLowerCase() === 'externalid') {
      group = groupAttribute(group, path.toLowerCase(), op === 'remove' ? undefined : value);
    } else if (path === undefined) {
      if (op === 'remove' || !isObject(value))
        throw new ScimError(400, 'An operation without a path needs an object value.', 'invalidValue');
      for (const [attribute, given] of Object.entries(lowerKeys(value))) {
        if (attribute === 'members')
          group = {
            ...group,
            members: op === 'add' ? [...new Set([...group.members, ...memberIds(given)])] : memberIds(given),
          };
        else if (attribute === 'displayname' || attribute === 'externalid')
          group = groupAttribute(group, attribute, given);
        // Okta sends the group's own id beside its new name.
        else if (attribute !== 'id' && attribute !== 'schemas')
          throw new ScimError(400, `Chorus does not keep a group’s ${attribute}.`, 'invalidPath');
      }
    } else {
      throw new ScimError(400, `Chorus does not keep a group’s ${path}.`, 'invalidPath');
    }
  }
  return group;
}

function groupAttribute(group: GroupInput, attribute: string, value: unknown): GroupInput {
  if (attribute === 'displayname') {
    const displayName = text(value, 'displayName');
    if (displayName === undefined) throw new ScimError(400, 'displayName cannot be removed.', 'mutability');
    return { ...group, displayName };
  }
  const { externalId: _, ...rest } = group;
  const externalId = text(value, 'externalId');
  return externalId === undefined ? rest : { ...rest, externalId };
}
