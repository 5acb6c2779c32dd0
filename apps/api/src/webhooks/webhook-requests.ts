// Request and answer shapes of the webhook routes (docs/api.md, Webhooks).
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS } from '#domain';
import { ZodValidationPipe } from '../http/zod-validation.pipe.js';

const position = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d{1,20}$/, 'a decimal position')])
  .transform((value) => BigInt(value));

const httpUrl = z
  .string()
  .max(2048)
  .refine(
    (value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol),
    'must be an http(s) URL',
  )
  .refine(
    (value) => !URL.canParse(value) || (new URL(value).username === '' && new URL(value).password === ''),
    'must not carry a user name or password',
  );

const eventTypes = z
  .array(z.union([z.literal('*'), z.enum(WEBHOOK_EVENT_TYPES)]))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length + 1)
  .transform((types) => [...new Set(types)]);

const token = z
  .string()
  .min(1)
  .max(1000)
  .describe('Splunk’s HEC token or Datadog’s API key: kept sealed, never shown again');

export const createWebhookRequest = z
  .strictObject({
    url: httpUrl,
    events: eventTypes,
    format: z.enum(WEBHOOK_FORMATS).default('standard'),
    description: z.string().max(500).default(''),
    startFrom: z.union([z.enum(['now', 'beginning']), position]).default('now'),
    token: token.optional(),
  })
  .refine((request) => (request.format === 'standard') === (request.token === undefined), {
    path: ['token'],
    message: 'required for splunk-hec and datadog, and taken by no other format',
  });

export const changeWebhookRequest = z
  .strictObject({
    url: httpUrl.optional(),
    events: eventTypes.optional(),
    description: z.string().max(500).optional(),
    enabled: z.boolean().optional(),
    token: token.optional(),
  })
  .refine((change) => Object.keys(change).length > 0, 'name at least one of url, events, description, enabled');

export const replayWebhookRequest = z.union([
  z.strictObject({ fromPosition: position }),
  z.strictObject({ fromTime: z.iso.datetime({ offset: true }).transform((value) => new Date(value)) }),
]);

export const webhookIdSchema = z.string().regex(/^[0-9a-f]{24}$/, 'a webhook endpoint id');
export const validWebhookId = new ZodValidationPipe(webhookIdSchema);

export const webhookEndpointAnswer = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  format: z.enum(WEBHOOK_FORMATS),
  description: z.string(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  createdAt: z.string(),
  secretRotatedUntil: z.string().nullable().describe('While the secret before the last rotation still signs too'),
});

export const createdWebhookAnswer = webhookEndpointAnswer.extend({
  secret: z.string().describe('whsec_…: shown once'),
});
export const webhookListAnswer = z.object({ endpoints: z.array(webhookEndpointAnswer) });
export const rotatedSecretAnswer = z.object({ secret: z.string(), previousSecretValidUntil: z.string() });
export const testEventAnswer = z.object({
  eventId: z.string().describe('The test event’s own id (`webhook-id`)'),
  delivered: z.boolean(),
  status: z.number().nullable().describe('The receiver’s status; null when it did not answer'),
  ms: z.number(),
  excerpt: z.string().describe('The start of the receiver’s answer'),
  reason: z.string().describe('Why it was not delivered, in a sentence; empty when delivered'),
});
export const replayAnswer = z.object({
  replayId: z.string(),
  fromRevision: z.union([z.number(), z.string()]).describe('The organization’s first event sent again'),
  fromPosition: z
    .union([z.number(), z.string()])
    .describe('Where in the log the replay starts, members’ own events included'),
});
export const deliveriesAnswer = z.object({
  deliveries: z.array(
    z.object({
      outcome: z.enum(['delivered', 'failed']),
      count: z.number().optional().describe('Events in the request, for a batching format'),
      eventId: z.string(),
      eventType: z.string(),
      position: z.string(),
      revision: z.string(),
      attempt: z.number(),
      status: z.number().nullable(),
      ms: z.number(),
      excerpt: z.string(),
      at: z.string(),
      reason: z.string().optional(),
      nextAttemptAt: z.string().optional(),
    }),
  ),
});
