// Request shapes of the Organizations API (docs/api.md). They check structure (types, closed vocabularies,
// sizes, no unknown fields); the domain's decide checks meaning (names, e-mail, hostnames, plan lines).
import { z } from 'zod';
import {
  ADD_ONS,
  CHORUS_PLANS,
  CLASSIC_PLANS,
  LINES,
  MAX_ADD_ON_QUANTITY,
  MAX_CONFIGURED_LIMIT,
  MEMBER_ROLES,
  SERVICE_LEVELS,
  type PlanName,
} from '#domain';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { memberOrSiteIdSchema, organizationIdSchema } from '../http/organization-ids.js';

const PLAN_NAMES = [...new Set<PlanName>([...CLASSIC_PLANS, ...CHORUS_PLANS])];
// Generous bounds against abuse; the domain applies the exact rules (e.g. names of at most 200 characters).
const text = z.string().max(1000);
const hostnameText = z.string().max(2048);

export const createOrganizationRequest = z.strictObject({ name: text, id: organizationIdSchema.optional() });

export const assignPlanRequest = z.strictObject({
  line: z.enum(LINES),
  plan: z.enum(PLAN_NAMES),
  serviceLevel: z.enum(SERVICE_LEVELS).optional(),
});

const quantity = z.int().min(1).max(MAX_ADD_ON_QUANTITY);

export const purchaseAddOnRequest = z.strictObject({ addOn: z.enum(ADD_ONS), quantity: quantity.optional() });

export const addOnParameter = z.enum(ADD_ONS);

/** `?quantity=N` cancels N units; without it every active unit is cancelled. */
export const cancelAddOnQuery = z.strictObject({
  quantity: z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number')
    .transform(Number)
    .pipe(quantity)
    .optional(),
});

export const chorusRequest = z
  .strictObject({ enabled: z.boolean(), parallelUse: z.boolean().optional() })
  .refine((request) => request.enabled || request.parallelUse === undefined, {
    message: 'parallelUse can only be set while enabling Chorus',
    path: ['parallelUse'],
  });

const limit = z.int().min(0).max(MAX_CONFIGURED_LIMIT).nullable();

export const limitsRequest = z
  .strictObject({
    users: limit.optional(),
    contentSections: limit.optional(),
    qualityAssuranceDomains: limit.optional(),
    webAnalyticsDomains: limit.optional(),
    override: z.boolean().optional(),
  })
  .refine((request) => Object.keys(request).length > 0, { message: 'give at least one limit or override' });

export const addMemberRequest = z.strictObject({
  email: text,
  role: z.enum(MEMBER_ROLES),
  chorusUser: z.boolean().optional(),
});

export const addSiteRequest = z.strictObject({ name: text, hostname: hostnameText });

export const addDomainRequest = z.strictObject({ domain: hostnameText });

export const domainParameter = hostnameText.min(1);

/** Pipes for the path parameters of the organization routes: a malformed one is 400 VALIDATION_FAILED. */
export const validOrganizationId = new ZodValidationPipe(organizationIdSchema);
export const validMemberOrSiteId = new ZodValidationPipe(memberOrSiteIdSchema);
export const validAddOn = new ZodValidationPipe(addOnParameter);
export const validDomain = new ZodValidationPipe(domainParameter);
