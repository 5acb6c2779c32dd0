// Request and answer shapes of the entitlement routes (OFREP, GET /entitlements, POST /usage): the single source of
// their schemas in /docs/openapi.json (through `@Operation`), which the contract test also checks real answers against.
import { z } from 'zod';
import { jsonSafeInteger, type ResponseText } from '../http/operation.decorator.js';

const limitEntitlement = z.object({
  limit: z.int().nullable().describe('null: unlimited'),
  used: z.int(),
  remaining: z.int().nullable(),
  exceeded: z.boolean(),
  exceededBy: z.int(),
  override: z.boolean(),
});

const entitlementValue = z.union([z.boolean(), z.string(), limitEntitlement]);
const entitlementReason = z.enum(['TARGETING_MATCH', 'DEFAULT']);

/**
 * OFREP's evaluation request: `{context: {targetingKey, ...}}`, the targeting key the organization's id. The OFREP
 * routes
 * read it with targetingKeyOf (their refusals are OFREP's own errors, not problem+json), by this schema.
 */
export const ofrepEvaluationRequest = z.looseObject({
  context: z.looseObject({ targetingKey: z.string().min(1).describe("The organization's id") }),
});

/** OFREP's error (open-feature/protocol): the key named for a single flag. */
export const ofrepErrorAnswer = z.object({
  key: z.string().optional(),
  errorCode: z.enum(['PARSE_ERROR', 'TARGETING_KEY_MISSING', 'INVALID_CONTEXT', 'FLAG_NOT_FOUND', 'GENERAL']),
  errorDetails: z.string(),
});

/** The `responses` of an OFREP route: its 400 (and 404 for one flag) are OFREP's own error shape. */
export function ofrepRefusals(flagNotFound: boolean): Record<number, string | ResponseText> {
  const refusals: Record<number, string | ResponseText> = {
    400: {
      description: 'PARSE_ERROR, TARGETING_KEY_MISSING or INVALID_CONTEXT (OFREP error)',
      schema: ofrepErrorAnswer,
    },
    401: 'UNAUTHENTICATED: no or an unknown credential',
    403: 'FORBIDDEN: the credential may not read entitlements',
  };
  if (flagNotFound) refusals[404] = { description: 'FLAG_NOT_FOUND (OFREP error)', schema: ofrepErrorAnswer };
  return refusals;
}

export const ofrepEvaluationAnswer = z.object({
  key: z.string(),
  value: entitlementValue,
  reason: entitlementReason,
  variant: z.string(),
  metadata: z.object({ position: jsonSafeInteger }),
});

export const ofrepBulkAnswer = z.object({
  flags: z.array(ofrepEvaluationAnswer),
  eventStreams: z.array(z.object({ type: z.literal('sse'), endpoint: z.object({ requestUri: z.string() }) })),
  metadata: z.object({ position: jsonSafeInteger }),
});

export const ofrepConfigurationAnswer = z.object({
  name: z.string(),
  capabilities: z.object({
    cacheInvalidation: z.object({ polling: z.object({ enabled: z.boolean(), minPollingIntervalMs: z.int() }) }),
    flagEvaluation: z.object({ supportedTypes: z.array(z.string()) }),
    changeNotification: z.object({ sse: z.object({ url: z.string() }) }),
  }),
});

/** GET /entitlements (EntitlementsAnswer). */
export const entitlementsAnswer = z.object({
  position: jsonSafeInteger.nullable().describe('Follow /entitlements/changes from it (null: nothing projected yet)'),
  organizations: z.array(
    z.object({
      organizationId: z.string(),
      etag: z.string(),
      position: jsonSafeInteger,
      flags: z.record(z.string(), z.object({ value: entitlementValue, reason: entitlementReason })),
    }),
  ),
});

const rejectedReport = z.object({
  index: z.int(),
  id: z.string(),
  status: z.union([z.literal(400), z.literal(409)]),
  code: z.enum(['OCCURRED_AT_OUT_OF_RANGE', 'REPORT_ID_REUSED']),
  detail: z.string(),
});

/** POST /usage: each report counted, a repeat, or rejected. */
export const usageAnswer = z.object({
  accepted: z.int(),
  duplicates: z.int(),
  rejected: z.array(rejectedReport),
  position: jsonSafeInteger.nullable(),
});
