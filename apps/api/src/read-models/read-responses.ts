// Answer shapes of the read routes (GET /organizations/:id, /health): the single source of their schemas in
// /docs/openapi.json (through `@Operation({ answer })`), which the contract test also checks real answers against.
import { z } from 'zod';
import { MEMBER_ROLES } from '#domain';
import { jsonSafeInteger } from '../http/operation.decorator.js';

const member = z.object({ userId: z.string(), email: z.string(), role: z.enum(MEMBER_ROLES), chorusUser: z.boolean() });

/** GET /organizations/:id (OrganizationAnswer): the fields a client reads typed; the read model's details stay open. */
export const organizationAnswer = z.looseObject({
  id: z.string(),
  name: z.string(),
  plan: z.string().nullable(),
  chorus: z.boolean(),
  governingPlan: z.object({ line: z.enum(['classic', 'chorus']), plan: z.string() }).nullable(),
  members: z
    .array(member.extend({ invited: z.boolean().describe('Until they have signed in once') }))
    .optional()
    .describe(
      'Every member: kept until 1.0 for integrators (absent with ?members=none); read GET /organizations/:id/members page by page',
    ),
  memberCount: z.int().describe('How many members the organization has'),
  owners: z.array(z.object({ userId: z.string(), email: z.string() })).describe('The owners, whom to ask'),
  sites: z.array(z.looseObject({ siteId: z.string(), name: z.string(), hostname: z.string(), live: z.boolean() })),
  qualityAssurance: z.object({ domains: z.array(z.string()) }),
  webAnalytics: z.object({ domains: z.array(z.string()) }),
  limits: z.looseObject({ override: z.boolean() }),
  usage: z.record(z.string(), z.int()),
  trafficPerMonth: z.int().nullable(),
  siteDefaults: z
    .looseObject({})
    .nullable()
    .describe("The governing plan's defaults for a new site; null without a plan"),
  traffic: z.object({
    period: z.string(),
    used: z.int(),
    allowance: z.int().nullable().describe('null: unlimited'),
    reached: z.array(z.object({ threshold: z.union([z.literal(80), z.literal(100)]), at: z.string() })),
  }),
  revision: jsonSafeInteger,
  position: jsonSafeInteger,
});

/** GET /organizations/:id/members: one page of the members, and where the next one starts. */
export const membersPageAnswer = z.object({
  organizationId: z.string(),
  members: z.array(member.extend({ invited: z.boolean().describe('Until they have signed in once') })),
  total: z.int().describe('The members that match (q), in all pages'),
  next: z.string().nullable().describe('Pass as `after` for the next page; null on the last page'),
  position: jsonSafeInteger,
});

/** GET /organizations/:id/notification-recipients. */
export const notificationRecipientsAnswer = z.object({
  organizationId: z.string(),
  recipients: z.array(member),
  position: jsonSafeInteger,
});

const projectionHealth = z.object({
  name: z.string(),
  checkpoint: z.int().nullable(),
  head: z.int().nullable(),
  lag: z.int().nullable().describe('Counted up to 1,000: 1000 means at least that'),
  lagMs: z.number().nullable(),
  state: z.enum(['stopped', 'catching-up', 'live', 'failed']),
  runs: z.enum(['inline', 'elsewhere']),
  error: z
    .object({
      message: z.string(),
      position: z.int(),
      eventId: z.string(),
      eventType: z.string(),
      streamId: z.string(),
    })
    .optional(),
});

/** GET /health (ReadModelsHealth): also the 503's body. */
export const healthAnswer = z.object({
  live: z.literal(true),
  ready: z.boolean(),
  eventStore: z.object({ reachable: z.boolean(), error: z.string().optional() }),
  projections: z.array(projectionHealth),
});

export const liveAnswer = z.object({ live: z.literal(true) });

export const readyAnswer = healthAnswer.pick({ ready: true, projections: true });
