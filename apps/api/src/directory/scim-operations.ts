// What the SCIM controllers answer, for /docs/openapi.json: SCIM's media type and shapes, and their refusals.
import { z } from 'zod';
import { SCIM_MEDIA_TYPE } from './scim-messages.js';

export const scim = (schema: z.ZodType) => ({ mediaType: SCIM_MEDIA_TYPE, schema });
export const resource = z.looseObject({ schemas: z.array(z.string()), id: z.string().optional() });
export const list = z.looseObject({
  schemas: z.array(z.string()),
  totalResults: z.int(),
  startIndex: z.int(),
  itemsPerPage: z.int(),
  Resources: z.array(z.looseObject({})),
});
export const scimGroup = z.looseObject({ schemas: z.array(z.string()), id: z.string(), displayName: z.string() });
export const scimUser = z.looseObject({
  schemas: z.array(z.string()),
  id: z.string(),
  userName: z.string(),
  active: z.boolean(),
});
export const SCIM_REFUSALS = {
  401: 'no directory token, or a revoked one (SCIM error schema)',
  404: 'not a user of this organization’s directory',
};
export const WRITE_REFUSALS = {
  400: 'invalidValue: not in a verified domain of the organization; invalidSyntax; mutability',
  409: 'uniqueness: the userName or externalId is another user’s; the users limit (detail says so); mutability: the last owner',
};
