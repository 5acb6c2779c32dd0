// RFC 7644 section 4: what this service provider supports, so that a provider's client can configure itself.
import { GROUP_SCHEMA } from './scim-groups.js';
import { ENTERPRISE_USER_SCHEMA, SCIM_PATH, USER_SCHEMA } from './scim-messages.js';

export const MAX_SCIM_RESULTS = 200;

const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

export const listOf = (
  resources: readonly unknown[],
  startIndex = 1,
  totalResults = resources.length,
): Record<string, unknown> => ({
  schemas: [LIST],
  totalResults,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

export const serviceProviderConfig = (baseUrl: string): Record<string, unknown> => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
  documentationUri: `${baseUrl}/docs`,
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: MAX_SCIM_RESULTS },
  changePassword: { supported: false },
  sort: { supported: false },
  etag: { supported: false },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'Directory token',
      description: 'Authorization: Bearer <token from the organization’s Directory page>',
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}${SCIM_PATH}/ServiceProviderConfig` },
});

export const userResourceType = (baseUrl: string): Record<string, unknown> => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
  id: 'User',
  name: 'User',
  endpoint: '/Users',
  description: 'A person of the organization’s verified domains: a member while active',
  schema: USER_SCHEMA,
  schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
  meta: { resourceType: 'ResourceType', location: `${baseUrl}${SCIM_PATH}/ResourceTypes/User` },
});

const attribute = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name,
  type: 'string',
  multiValued: false,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

/** Only what Chorus keeps; other attributes are accepted and not stored. */
export const userSchema = (baseUrl: string): Record<string, unknown> => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
  id: USER_SCHEMA,
  name: 'User',
  description: 'User Account',
  attributes: [
    attribute('userName', {
      required: true,
      uniqueness: 'server',
      description: 'The person’s address, in a verified domain of the organization',
    }),
    attribute('name', {
      type: 'complex',
      subAttributes: [attribute('givenName'), attribute('familyName')],
    }),
    attribute('displayName'),
    attribute('emails', {
      type: 'complex',
      multiValued: true,
      subAttributes: [attribute('value'), attribute('type'), attribute('primary', { type: 'boolean' })],
    }),
    attribute('active', {
      type: 'boolean',
      description: 'false ends the membership and the sessions of an account of a verified domain',
    }),
  ],
  meta: { resourceType: 'Schema', location: `${baseUrl}${SCIM_PATH}/Schemas/${USER_SCHEMA}` },
});

export const groupResourceType = (baseUrl: string): Record<string, unknown> => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
  id: 'Group',
  name: 'Group',
  endpoint: '/Groups',
  description: 'A group of the directory’s users; mapped to a role, it gives its members that role',
  schema: GROUP_SCHEMA,
  meta: { resourceType: 'ResourceType', location: `${baseUrl}${SCIM_PATH}/ResourceTypes/Group` },
});

export const groupSchema = (baseUrl: string): Record<string, unknown> => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
  id: GROUP_SCHEMA,
  name: 'Group',
  description: 'Group',
  attributes: [
    attribute('displayName', { required: true, uniqueness: 'server' }),
    attribute('members', {
      type: 'complex',
      multiValued: true,
      subAttributes: [attribute('value', { mutability: 'immutable' }), attribute('$ref', { type: 'reference' })],
    }),
  ],
  meta: { resourceType: 'Schema', location: `${baseUrl}${SCIM_PATH}/Schemas/${GROUP_SCHEMA}` },
});
