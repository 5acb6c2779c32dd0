import { ZodValidationPipe } from '../http/zod-validation.pipe.js';
import { memberOrSiteIdSchema, organizationIdSchema } from './organization-ids.js';
import { addOnParameter, domainParameter } from './organization-requests.js';

/** Pipes for the path parameters of the organization routes: a malformed one is 400 VALIDATION_FAILED. */
export const validOrganizationId = new ZodValidationPipe(organizationIdSchema);
export const validMemberOrSiteId = new ZodValidationPipe(memberOrSiteIdSchema);
export const validAddOn = new ZodValidationPipe(addOnParameter);
export const validDomain = new ZodValidationPipe(domainParameter);
