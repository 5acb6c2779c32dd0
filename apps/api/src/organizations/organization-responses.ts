// Answer shapes of the Organizations API (docs/api.md), in the style of organization-requests.ts: the single source
// of each route's success schema in /docs/openapi.json (through `@Operation({ answer })`), which the contract test
// also checks real answers against.
import { z } from 'zod';
import { commandAnswerSchema } from '../http/operation.decorator.js';

/**
 * POST /organizations/:id/members: the member's user id (registered or still to register) and whether a mail is owed.
 */
export const addMemberAnswer = commandAnswerSchema.extend({
  userId: z.string(),
  invitation: z
    .enum(['pending', 'none'])
    .describe('`pending`: an invitation (or a notice) is mailed after this answer, at least once'),
});

/** GET /organizations/:id/members/invitation-failures. */
export const undeliveredInvitationsAnswer = z.object({
  failures: z.array(
    z.object({
      userId: z.string(),
      email: z.string(),
      reason: z.enum(['address_refused', 'mail_server_refused']),
      responseCode: z.int().optional(),
      at: z.string().describe('ISO 8601'),
    }),
  ),
});

/** POST /organizations/:id/sites: the new site's id too. */
export const addSiteAnswer = commandAnswerSchema.extend({ siteId: z.string() });
